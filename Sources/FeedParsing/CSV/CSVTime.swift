import GeoCore

/// Reads a CSV row's time: one column (RFC 3339, or epoch seconds, or
/// epoch milliseconds when the number is 10^11 or more, i.e. after
/// 1973 in milliseconds and beyond year 5000 in seconds), or a date
/// column plus a time-of-day column.
enum CSVTime {
    static let millisecondThreshold = 100_000_000_000.0

    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, starts: [Int], ends: [Int], columns: CSVColumns
    ) -> FieldValue<Timestamp> {
        func range(_ column: Int?) -> (Int, Int)? {
            guard let column, column < starts.count else { return nil }
            var s = starts[column], e = ends[column]
            while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
            while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
            return s < e ? (s, e) : nil
        }
        if let (s, e) = range(columns.time) {
            let slice = UnsafeBufferPointer(rebasing: bytes[s..<e])
            if let stamp = RFC3339.parse(utf8: slice) { return .value(stamp) }
            if let number = ASCIIDecimal.parse(bytes, s, e), !number.isNegative {
                return epoch(number)
            }
            return .invalid
        }
        guard columns.date != nil else { return .absent }
        let dateRange = range(columns.date)
        let clockRange = range(columns.clock)
        guard let (ds, de) = dateRange else { return clockRange == nil ? .absent : .invalid }
        guard let day = date(bytes, ds, de) else { return .invalid }
        var nanos: Int64 = 0
        var digits: UInt8 = 0
        if let (cs, ce) = clockRange {
            guard let clock = clock(bytes, cs, ce) else { return .invalid }
            (nanos, digits) = clock
        }
        // Dates outside Timestamp's range (1678…2262) are not representable.
        let (midnight, overflow) = Int64(day).multipliedReportingOverflow(by: 86_400_000_000_000)
        guard !overflow, midnight <= Int64.max - nanos else { return .invalid }
        return .value(Timestamp(nanoseconds: midnight + nanos, fractionDigits: digits))
    }

    private static func epoch(_ number: ASCIIDecimal) -> FieldValue<Timestamp> {
        let isMilliseconds = number.double >= millisecondThreshold
        let nanosecondDigits = isMilliseconds ? 6 : 9
        guard number.scale >= 0, number.scale <= nanosecondDigits, number.mantissa <= UInt64(Int64.max) else {
            return .invalid
        }
        var multiplier: Int64 = 1
        for _ in 0..<(nanosecondDigits - number.scale) { multiplier *= 10 }
        let (nanos, overflow) = Int64(number.mantissa).multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return .invalid }
        let fraction = number.scale + (isMilliseconds ? 3 : 0)
        return .value(Timestamp(nanoseconds: nanos, fractionDigits: UInt8(isMilliseconds ? max(3, fraction) : fraction)))
    }

    /// A date in days since 1970: `yyyy-mm-dd`, `yyyy/mm/dd` or
    /// `yyyy.mm.dd` (year first), `m/d/yyyy` (slashes with the year last:
    /// the US order, as GPSBabel reads it) or `d.m.yyyy` (dots with the
    /// year last: the German order). Month and day may have one or two
    /// digits; the year has four.
    ///
    /// Examples: `2024/08/05`, `2010-1-9`, `1/9/2010` (9 January), `9.1.2010` (9 January).
    static func date(_ bytes: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Int? {
        if e - s == 10, bytes[s + 4] == bytes[s + 7], bytes[s + 4] == 0x2F || bytes[s + 4] == 0x2D,
            let year = digits(bytes, s, 4), let month = digits(bytes, s + 5, 2), let day = digits(bytes, s + 8, 2)
        {
            return days(year: year, month: month, day: day)
        }
        // Otherwise: three runs of digits split by one separator used twice.
        var parts: [(start: Int, count: Int)] = []
        var start = s
        var separator: UInt8 = 0
        for i in s...e where i == e || bytes[i] &- 0x30 >= 10 {
            guard i > start, i - start <= 4, parts.count < 3 else { return nil }
            parts.append((start, i - start))
            if i < e {
                guard separator == 0 || bytes[i] == separator, bytes[i] == 0x2D || bytes[i] == 0x2F || bytes[i] == 0x2E
                else { return nil }
                separator = bytes[i]
            }
            start = i + 1
        }
        guard parts.count == 3, let first = digits(bytes, parts[0].start, parts[0].count),
            let second = digits(bytes, parts[1].start, parts[1].count), let third = digits(bytes, parts[2].start, parts[2].count)
        else { return nil }
        let lengths = (parts[0].count, parts[1].count, parts[2].count)
        if lengths.0 == 4, lengths.1 <= 2, lengths.2 <= 2 { return days(year: first, month: second, day: third) }
        guard lengths.2 == 4, lengths.0 <= 2, lengths.1 <= 2 else { return nil }
        switch separator {
        case 0x2F: return days(year: third, month: first, day: second)
        case 0x2E: return days(year: third, month: second, day: first)
        default: return nil
        }
    }

    private static func days(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        return CivilCalendar.days(year: year, month: month, day: day)
    }

    /// `hh:mm:ss[.fff]`, optionally followed by ` AM`/` PM`.
    private static func clock(_ bytes: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> (Int64, UInt8)? {
        var end = e
        var meridiem: UInt8 = 0
        if end - s > 3, bytes[end - 1] | 0x20 == 0x6D, bytes[end - 3] == 0x20 {  // " AM"/" PM"
            meridiem = bytes[end - 2] | 0x20
            end -= 3
        }
        guard end - s >= 8, bytes[s + 2] == 0x3A, bytes[s + 5] == 0x3A,
            var hour = digits(bytes, s, 2), let minute = digits(bytes, s + 3, 2), let second = digits(bytes, s + 6, 2),
            minute < 60, second <= 60
        else { return nil }
        if meridiem != 0 {
            guard (1...12).contains(hour), meridiem == 0x61 || meridiem == 0x70 else { return nil }
            hour = hour % 12 + (meridiem == 0x70 ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        var nanos = Int64(hour * 3600 + minute * 60 + second) * 1_000_000_000
        var fractionDigits = 0  // counted in full: a field may hold hundreds of digits
        var i = s + 8
        if i < end {
            guard bytes[i] == 0x2E else { return nil }
            i += 1
            var scale: Int64 = 100_000_000
            while i < end {
                let d = bytes[i] &- 0x30
                guard d < 10 else { return nil }
                nanos += Int64(d) * scale
                scale /= 10
                fractionDigits += 1
                i += 1
            }
        }
        return (nanos, UInt8(min(9, fractionDigits)))
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<(start + count) {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }
}
