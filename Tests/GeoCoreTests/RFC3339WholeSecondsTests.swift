import Testing

@testable import GeoCore

/// The fast reader of whole-second UTC times against the general reader
/// it stands in for: the same timestamp or the same refusal.
@Suite("RFC 3339 whole seconds")
struct RFC3339WholeSecondsTests {
    /// Times of the fast reader's forms, from every year of Timestamp's
    /// range and past it, with one byte changed in some: a digit, a
    /// separator, a letter's case, a byte that is no digit.
    @Test func agreesWithTheGeneralReader() {
        var random = SplitMix64(seed: 20)
        let changes: [UInt8] = Array("0123456789-:TtZz /.+".utf8) + [0x00, 0x2F, 0x3A, 0x80, 0xFF]
        var read = 0
        for round in 0..<100_000 {
            let year = 1600 + Int(random.next() % 800)
            let (month, day) = (Int(random.next() % 14), Int(random.next() % 33))
            let (hour, minute, second) = (Int(random.next() % 26), Int(random.next() % 62), Int(random.next() % 62))
            var text = Array(
                (pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + ["T", "t", " "][round % 3] + pad(hour, 2) + ":"
                    + pad(minute, 2) + ":" + pad(second, 2) + ["Z", "z", ""][round / 3 % 3]).utf8)
            if round % 4 == 0 { text[Int(random.next() % UInt64(text.count))] = changes[Int(random.next() % 25)] }
            let general = RFC3339.parseAnyForm(utf8: text)
            let fast = text.withUnsafeBufferPointer(RFC3339.parseWholeSeconds)
            #expect(fast == general, "\(String(decoding: text, as: UTF8.self))")
            #expect(RFC3339.parse(utf8: text) == general)
            if fast != nil { read += 1 }
        }
        // Most of the times are valid, and the fast reader read them.
        #expect(read > 30_000)
    }

    /// The day count of years of four digits, through the Julian day
    /// number, is the count by eras on every first, 28th and last day of
    /// every month of every such year.
    @Test func daysOfEveryYearOfFourDigits() {
        for year in 0...9999 {
            for month in 1...12 {
                for day in [1, 28, CivilCalendar.daysInMonth(year: year, month: month)] {
                    let fast = CivilCalendar.days(year: year, month: month, day: day)
                    if fast != CivilCalendar.daysOfAnyEra(year: year, month: month, day: day) {
                        Issue.record("\(year)-\(month)-\(day): \(fast)")
                        return
                    }
                }
            }
        }
    }

    @Test("other forms are left to the general reader")
    func otherForms() {
        for text in ["2025-03-01T10:00:00.5Z", "2025-03-01T10:00:00+01:00", "2025-03-01T10:00:00Z ", "2025-03-01T10:00Z"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer(RFC3339.parseWholeSeconds) == nil, "\(text)")
        }
        #expect(RFC3339.parse("2025-03-01T10:00:00.5Z")?.fractionDigits == 1)
        #expect(RFC3339.parse("2025-03-01T11:00:00+01:00") == RFC3339.parse("2025-03-01T10:00:00Z"))
        // A leap second is the next minute's start, as in the general reader.
        #expect(RFC3339.parse("2016-12-31T23:59:60Z") == RFC3339.parse("2017-01-01T00:00:00Z"))
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
