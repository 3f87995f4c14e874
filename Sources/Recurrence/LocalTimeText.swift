import Foundation
import GeoCore

/// A time as a person types it, read in a time zone: RFC 3339 with an
/// offset (`2025-06-01T12:00:00+02:00`), or local to `zone` — a date and
/// time without offset (`2025-06-01T12:00`, `2025-06-01 12:00:30`), a date
/// (`2025-06-01`: its start), a time of day (`09:00`: today), `now`,
/// `today`, `yesterday` or `tomorrow`, the last three optionally followed
/// by a time (`tomorrow 09:00`). Local times that a DST change skips or
/// repeats follow ``WallClock``'s policy (forward; the first).
public enum LocalTimeText {
    /// The instant `text` names, local forms read in `zone`, relative ones
    /// against `now`.
    /// - Throws: ``RecurrenceError/invalidDate(_:)`` naming the text.
    public static func date(_ text: String, in zone: TimeZone, now: Date) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower == "now" { return now }
        if hasOffset(trimmed), let stamp = RFC3339.parse(trimmed) {
            return Date(timeIntervalSince1970: stamp.secondsSince1970)
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
