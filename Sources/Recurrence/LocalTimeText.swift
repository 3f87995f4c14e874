import Foundation
import GeoCore

/// A time as a person types it, read in a time zone: RFC 3339 with an
/// offset (`2025-06-01T12:00:00+02:00`), or local to `zone` — a date and
/// time without offset (`2025-06-01T12:00`, `2025-06-01 12:00:30`), a date
/// (`2025-06-01`: its start), a time of day (`09:00`: today), `now`,
/// `today`, `yesterday` or `tomorrow`, the last three optionally followed
/// by a time (`tomorrow 09:00`). A time with an offset may leave out
/// its seconds (`2025-06-01T12:00+02:00`); one without a date
/// (`23:59+02:00`, `08:00Z`) is today's, the day taken at that offset.
/// Local times that a DST change skips or repeats follow ``WallClock``'s
/// policy (forward; the first).
public enum LocalTimeText {
    /// The instant `text` names, local forms read in `zone`, relative ones
    /// against `now`.
    /// - Throws: ``RecurrenceError/invalidDate(_:)`` naming the text.
    public static func date(_ text: String, in zone: TimeZone, now: Date) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower == "now" { return now }
        if hasOffset(trimmed), let date = try? RFC3339Text.date(trimmed) { return date }
        if let (days, seconds, offset) = dateAndTimeWithOffset(trimmed) {
            // Foundation's fixed zones stop at ±18 hours.
            guard let fixed = TimeZone(secondsFromGMT: offset) else { throw RecurrenceError.invalidDate(text) }
            return WallClock(days: days ?? WallClock(now, in: fixed).days, secondsOfDay: seconds).resolve(in: fixed)
        }
        let today = WallClock(now, in: zone).days
        for (word, offset) in [("today", 0), ("yesterday", -1), ("tomorrow", 1)] where lower.hasPrefix(word) {
            let rest = lower.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
            let rest2 = rest.hasPrefix("t") ? String(rest.dropFirst()) : rest
            guard let seconds = rest2.isEmpty ? 0 : secondsOfDay(rest2) else { break }
            return WallClock(days: today + offset, secondsOfDay: seconds).resolve(in: zone)
        }
        if let seconds = secondsOfDay(lower) { return WallClock(days: today, secondsOfDay: seconds).resolve(in: zone) }
        let parts = trimmed.split(whereSeparator: { $0 == "T" || $0 == " " || $0 == "t" }).map(String.init)
        if (1...2).contains(parts.count), let days = days(parts[0]) {
            guard let seconds = parts.count == 2 ? secondsOfDay(parts[1].lowercased()) : 0 else {
                throw RecurrenceError.invalidDate(text)
            }
            return WallClock(days: days, secondsOfDay: seconds).resolve(in: zone)
        }
        throw RecurrenceError.invalidDate(text)
    }

    /// The offset from UTC, in seconds, that `text` states (`Z`, `+02:00`),
    /// or `nil` for a local or relative time: what a task given such a time
    /// and no zone takes as its zone.
    public static func statedOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if hasOffset(trimmed), RFC3339.secondsSince1970(trimmed) != nil { return suffixOffset(trimmed)?.seconds }
        return dateAndTimeWithOffset(trimmed)?.offset
    }

    /// A time of day with an offset, on a date or alone (today's):
    /// `2025-06-01T23:59+02:00`, `2025-06-01 08:00Z`, `23:59+02:00` or
    /// `08:00:30Z`. RFC 3339 wants the seconds; a person often leaves
    /// them out.
    private static func dateAndTimeWithOffset(_ text: String) -> (days: Int?, seconds: Int, offset: Int)? {
        if let (seconds, offset) = timeOfDayWithOffset(text) { return (nil, seconds, offset) }
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " || $0 == "t" }).map(String.init)
        guard parts.count == 2, let days = days(parts[0]), let (seconds, offset) = timeOfDayWithOffset(parts[1]) else {
            return nil
        }
        return (days, seconds, offset)
    }

    /// `23:59+02:00` or `08:00:30Z`: seconds of the day and the offset.
    private static func timeOfDayWithOffset(_ text: String) -> (seconds: Int, offset: Int)? {
        guard let offset = suffixOffset(text), let seconds = secondsOfDay(String(text.dropLast(offset.length))) else {
            return nil
        }
        return (seconds, offset.seconds)
    }

    /// A trailing `Z` or `±HH:MM`: its seconds east of UTC and its length.
    private static func suffixOffset(_ text: String) -> (seconds: Int, length: Int)? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return (0, 1) }
        let tail = Array(text.suffix(6))
        guard tail.count == 6, tail[0] == "+" || tail[0] == "-", tail[3] == ":",
            let hours = Int(String(tail[1...2])), let minutes = Int(String(tail[4...5])), hours <= 23, minutes <= 59
        else { return nil }
        return ((tail[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60), 6)
    }

    /// Whether the text ends in `Z` or a `±HH:MM` offset after a time.
    private static func hasOffset(_ text: String) -> Bool {
        guard text.count > 10 else { return false }
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        let tail = Array(text.suffix(6))
        return (tail[0] == "+" || tail[0] == "-") && tail[3] == ":"
    }

    /// Days since 1970-01-01 of `YYYY-MM-DD`.
    private static func days(_ text: String) -> Int? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]), (1...12).contains(month),
            day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        return CivilCalendar.days(year: year, month: month, day: day)
    }

    /// Seconds since midnight of `HH:MM` or `HH:MM:SS`.
    private static func secondsOfDay(_ text: String) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 }),
            let hour = Int(fields[0]), let minute = Int(fields[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = fields.count == 3 ? Int(fields[2]) : 0
        guard let second, (0...59).contains(second) else { return nil }
        return hour * 3600 + minute * 60 + second
    }
}
