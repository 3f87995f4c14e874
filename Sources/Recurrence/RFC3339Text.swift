import Foundation
import GeoCore

/// RFC 3339 text for Foundation `Date`s, through GeoCore's fast parser.
public enum RFC3339Text {
    /// Parses an RFC 3339 date-time with any offset and fraction.
    ///
    /// - Throws: ``RecurrenceError/invalidDate(_:)`` naming the text.
    public static func date(_ text: String) throws -> Date {
        guard let stamp = RFC3339.parse(text.trimmingWhitespace()) else {
            throw RecurrenceError.invalidDate(text)
        }
        return Date(timeIntervalSince1970: stamp.secondsSince1970)
    }

    /// `2025-03-20T16:45:00Z`, with milliseconds only when the date has them.
    ///
    /// Dates outside the years 1678–2262 (beyond GeoCore's nanosecond
    /// timestamps) are formatted by Foundation, to the second.
    public static func format(_ date: Date) -> String {
        guard coversFast(date) else {
            return date.formatted(Date.ISO8601FormatStyle())
        }
        return RFC3339.format(timestamp(date))
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

    /// The date in a time zone, `2025-03-20T17:45:00+01:00`.
    public static func format(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.utcOffset(at: date)
        let local = Timestamp(
            nanoseconds: timestamp(date).nanoseconds + Int64(offset) * 1_000_000_000,
            fractionDigits: timestamp(date).fractionDigits)
        var text = RFC3339.format(local)
        text.removeLast()  // the "Z"
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        let hours = magnitude / 3600, minutes = magnitude / 60 % 60
        return text + sign + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}
