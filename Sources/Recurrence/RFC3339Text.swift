import Foundation
import GeoCore

/// RFC 3339 text for Foundation `Date`s, through GeoCore's fast parser.
public enum RFC3339Text {
    /// Parses an RFC 3339 date-time with any offset and fraction, in any
    /// year from 0000 to 9999 (a `Date` holds them all, where GeoCore's
    /// timestamps end in 1678 and 2262).
    ///
    /// - Throws: ``RecurrenceError/invalidDate(_:)`` naming the text.
    public static func date(_ text: String) throws -> Date {
        let trimmed = text.trimmingWhitespace()
        if let stamp = RFC3339.parse(trimmed) { return Date(timeIntervalSince1970: stamp.secondsSince1970) }
        guard let (seconds, nanoseconds) = RFC3339.secondsSince1970(trimmed) else {
            throw RecurrenceError.invalidDate(text)
        }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// `2025-03-20T16:45:00Z`, with milliseconds only when the date has them.
    ///
    /// Dates outside the years 1678–2262 (beyond GeoCore's nanosecond
    /// timestamps) are written to the second, in the same proleptic
    /// Gregorian calendar that ``date(_:)`` reads (Foundation's formatter
    /// turns Julian before 1582).
    public static func format(_ date: Date) -> String {
        guard coversFast(date) else { return formatWide(date) }
        return RFC3339.format(timestamp(date))
    }

    /// ``format(_:)`` of a date outside GeoCore's timestamps.
    private static func formatWide(_ date: Date) -> String {
        // A task's dates stay within a billion years (durations end
        // there); the wall clock's day arithmetic holds 145 billion.
        guard abs(date.timeIntervalSince1970) < 0x1p62 else { return date.formatted(Date.ISO8601FormatStyle()) }
        let clock = WallClock(date, in: ZoneNames.utc)
        let civil = CivilCalendar.date(fromDays: clock.days)
        let secondOfDay = clock.secondsOfDay
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(civil.year, 4))-\(padded(civil.month, 2))-\(padded(civil.day, 2))T"
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))Z"
    }

    /// Appends ``format(_:)``'s text of `date` to a byte buffer.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        guard coversFast(date) else { return bytes.append(contentsOf: format(date).utf8) }
        RFC3339.append(timestamp(date), to: &bytes)
    }

    /// Whether `date` lies within GeoCore's nanosecond timestamps (9.2 ×
    /// 10⁹ s of 1970, the years 1678–2262), where ``timestamp(_:)`` holds
    /// and the text is written without Foundation.
    public static func coversFast(_ date: Date) -> Bool { abs(date.timeIntervalSince1970) < 9.2e9 }

    /// The date as a GeoCore timestamp (millisecond digits when fractional);
    /// the date must lie within the years 1678–2262.
    public static func timestamp(_ date: Date) -> Timestamp {
        // Within the range, milliseconds are whole numbers below 2^53:
        // exact as integers.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return Timestamp(nanoseconds: millis * 1_000_000, fractionDigits: millis % 1000 == 0 ? 0 : 3)
    }
}
