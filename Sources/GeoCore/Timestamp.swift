/// An instant in UTC with nanosecond resolution, and how many fractional
/// digits its source wrote.
///
/// Feeds carry times as text (RFC 3339, NMEA `hhmmss.ss`, epoch seconds).
/// `Timestamp` keeps the instant as nanoseconds since 1970-01-01T00:00:00Z
/// (range 1678…2262) and remembers ``fractionDigits`` only so that output
/// can show fractional seconds when, and as precisely as, the source had
/// them. Equality and order look at the instant alone.
public struct Timestamp: Sendable {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    public var nanoseconds: Int64
    /// Fractional-second digits to print (0…9); 0 prints whole seconds.
    public var fractionDigits: UInt8

    /// Creates a timestamp from nanoseconds since the Unix epoch.
    public init(nanoseconds: Int64, fractionDigits: UInt8 = 0) {
        self.nanoseconds = nanoseconds
        self.fractionDigits = min(fractionDigits, 9)
    }

    /// Creates a timestamp from (possibly fractional) seconds since the
    /// Unix epoch; `fractionDigits` defaults to 3 when the value has a
    /// fraction and 0 otherwise.
    public init(secondsSince1970 seconds: Double, fractionDigits: UInt8? = nil) {
        let nanos = Int64((seconds * 1e9).rounded())
        let digits = fractionDigits ?? (seconds.rounded(.towardZero) == seconds ? 0 : 3)
        self.init(nanoseconds: nanos, fractionDigits: digits)
    }

    /// The instant `seconds` after 1970, or the nearest one a timestamp
    /// holds (1677-09-21 or 2262-04-11) when it lies beyond: where to draw
    /// a date that may be a task's in any year.
    public init(clampingSecondsSince1970 seconds: Double) {
        let nanos = (seconds * 1e9).rounded()
        // 2^63 is a Double; Int64.max is not.
        self.init(nanoseconds: nanos >= 0x1p63 ? .max : nanos <= -0x1p63 ? .min : Int64(nanos))
    }

    /// Seconds since the Unix epoch.
    public var secondsSince1970: Double { Double(nanoseconds) / 1e9 }

    /// The nanoseconds from `earlier` to this instant: exact when they lie
    /// within 292 years of each other (what an `Int64` difference holds),
    /// else to a double's precision, where the difference would overflow.
    public func nanoseconds(since earlier: Timestamp) -> Double {
        let (span, overflow) = nanoseconds.subtractingReportingOverflow(earlier.nanoseconds)
        return overflow ? Double(nanoseconds) - Double(earlier.nanoseconds) : Double(span)
    }

    /// This instant moved by `seconds`, keeping the fraction digits.
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(nanoseconds: nanoseconds + Int64((seconds * 1e9).rounded()), fractionDigits: fractionDigits)
    }

    /// ``adding(seconds:)``, or the first or last instant a timestamp
    /// holds when the sum lies beyond it: a margin or window drawn around
    /// a feed whose times reach 1677 or 2262.
    public func adding(clampedSeconds seconds: Double) -> Timestamp {
        let step = (seconds * 1e9).rounded()
        guard let exact = Int64(exactly: step), case (let sum, false) = nanoseconds.addingReportingOverflow(exact) else {
            return Timestamp(nanoseconds: step > 0 ? .max : .min, fractionDigits: fractionDigits)
        }
        return Timestamp(nanoseconds: sum, fractionDigits: fractionDigits)
    }
}

extension Timestamp: Hashable, Comparable {
    public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds == rhs.nanoseconds }
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public func hash(into hasher: inout Hasher) { hasher.combine(nanoseconds) }
}

/// Proleptic Gregorian calendar arithmetic on civil dates, in days since
/// 1970-01-01 (Howard Hinnant's `days_from_civil` / `civil_from_days`).
public enum CivilCalendar {
    /// Days since 1970-01-01 of the given year, month (1…12) and day (1…31).
    ///
    /// A year of four digits (0…9999, every feed's and tasks file's) goes
    /// through the Julian day number in unsigned arithmetic, whose
    /// divisions by constants are each a multiplication and a shift (20
    /// instructions rather than ``daysOfAnyEra(year:month:day:)``'s 72).
    @inlinable @inline(__always)
    public static func days(year: Int, month: Int, day: Int) -> Int {
        guard (0...9999).contains(year), (1...12).contains(month) else {
            return daysOfAnyEra(year: year, month: month, day: day)
        }
        // No step overflows for these ranges, so none is checked; a day
        // out of its range only shifts the sum, which wraps back.
        let march: UInt = month <= 2 ? 1 : 0
        let y = UInt(truncatingIfNeeded: year) &+ 4800 &- march
        let m = UInt(truncatingIfNeeded: month) &+ 12 &* march &- 3
        let julian = UInt(truncatingIfNeeded: day) &+ (153 &* m &+ 2) / 5 &+ 365 &* y &+ y / 4 &- y / 100 &+ y / 400
        return Int(truncatingIfNeeded: julian) &- 2_472_633
    }

    /// ``days(year:month:day:)`` for any year, by 400-year eras.
    @inlinable
    static func daysOfAnyEra(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The year, month and day of a count of days since 1970-01-01.
    @inlinable
    public static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of a year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
