import Foundation
import GeoCore
import Testing

@Suite("RFC 3339 timestamps")
struct TimestampTests {
    @Test("UTC with and without a fraction")
    func utc() throws {
        // 2025-03-01T10:00:00Z = 1740823200 s since 1970.
        let whole = try #require(RFC3339.parse("2025-03-01T10:00:00Z"))
        #expect(whole.nanoseconds == 1_740_823_200_000_000_000)
        #expect(whole.fractionDigits == 0)
        let fraction = try #require(RFC3339.parse("2025-03-01T10:00:00.250Z"))
        #expect(fraction.nanoseconds == 1_740_823_200_250_000_000)
        #expect(RFC3339.format(fraction) == "2025-03-01T10:00:00.250Z")
    }

    @Test("offsets are folded into UTC")
    func offsets() throws {
        // 2025-01-06T09:00:00+01:00 is 08:00Z.
        #expect(RFC3339.parse("2025-01-06T09:00:00+01:00") == RFC3339.parse("2025-01-06T08:00:00Z"))
        #expect(RFC3339.parse("2025-01-06T09:00:00+0100") == RFC3339.parse("2025-01-06T08:00:00Z"))
        #expect(RFC3339.parse("2025-01-05T23:00:00-09:00") == RFC3339.parse("2025-01-06T08:00:00Z"))
    }

    @Test(
        "rejects what is not a date-time",
        arguments: [
            "", "banana", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-03-01", "2025-03-01T24:00:00Z",
            "2025-03-01T10:00:00.Z", "2025-03-01T10:00:00Zjunk",
        ])
    func rejects(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("format round-trips across the calendar")
    func roundTrip() {
        // Every 7919 s over eight years, leap days included.
        var seconds: Int64 = 946_684_800  // 2000-01-01T00:00:00Z
        while seconds < 1_200_000_000 {
            let stamp = Timestamp(nanoseconds: seconds * 1_000_000_000)
            #expect(RFC3339.parse(RFC3339.format(stamp)) == stamp)
            seconds += 7919 * 37
        }
        #expect(RFC3339.format(Timestamp(nanoseconds: -1_000_000_000)) == "1969-12-31T23:59:59Z")
    }

    /// The text against Foundation's Gregorian calendar in UTC, over
    /// seeded instants from 1678 to 2261 with every number of fraction
    /// digits; the fraction is the nanoseconds cut to that many digits.
    @Test func formatAgreesWithFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var random = SplitMix64(seed: 3339)
        for _ in 0..<20_000 {
            let seconds = Int64(random.next() % 18_400_000_000) - 9_200_000_000
            let nanos = Int64(random.next() % 1_000_000_000)
            let digits = UInt8(random.next() % 10)
            let stamp = Timestamp(nanoseconds: seconds * 1_000_000_000 + nanos, fractionDigits: digits)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            var expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? -1, parts.month ?? -1, parts.day ?? -1,
                parts.hour ?? -1, parts.minute ?? -1, parts.second ?? -1)
            if digits > 0 { expected += "." + String(String(1_000_000_000 + nanos).dropFirst().prefix(Int(digits))) }
            #expect(RFC3339.format(stamp) == expected + "Z", "\(seconds) s \(nanos) ns, \(digits) digits")
        }
    }
}

@Suite("RFC 3339 range")
struct RFC3339RangeTests {
    @Test(
        "years outside Timestamp's range are rejected, not a crash",
        arguments: ["1234-12-12T08:00:00.123Z", "4096-12-12T08:00:00.41Z", "9999-12-31T23:59:59Z"])
    func outOfRange(text: String) {
        #expect(RFC3339.parse(text) == nil)
        #expect(RFC3339.outsideHeldSpan(text)?.hasPrefix("outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z") == true)
        #expect(RFC3339.outsideHeldSpan("yesterday") == nil)
    }

    /// The first and last instants, and two 581 years apart: differences
    /// and margins that an `Int64` cannot hold, where they trapped.
    @Test func differencesAndMarginsAtTheEnds() throws {
        let first = Timestamp(nanoseconds: .min), last = Timestamp(nanoseconds: .max)
        #expect(last.nanoseconds(since: first) == 0x1p64)
        #expect(first.nanoseconds(since: last) == -0x1p64)
        let a = try #require(RFC3339.parse("2025-03-01T10:00:00Z")),
            b = try #require(RFC3339.parse("2025-03-01T10:00:00.000000001Z"))
        #expect(b.nanoseconds(since: a) == 1, "exact within 292 years")
        #expect(last.adding(clampedSeconds: 60) == last && first.adding(clampedSeconds: -60) == first)
        #expect(last.adding(clampedSeconds: -1e300) == first && first.adding(clampedSeconds: .infinity) == last)
        #expect(a.adding(clampedSeconds: 1.5) == a.adding(seconds: 1.5))
        #expect(Timestamp(clampingSecondsSince1970: 1e12) == last && Timestamp(clampingSecondsSince1970: -1e12) == first)
        #expect(Timestamp(clampingSecondsSince1970: 1_740_823_200) == a)
    }
}
