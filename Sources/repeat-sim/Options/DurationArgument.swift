import ArgumentParser
import Foundation
import Recurrence

/// The value of every duration flag: `45s`, `30m`, `6h`, `3d`, `2w`, `1mo`,
/// `1y`, a fraction of a fixed unit (`0.5s`, `250ms`), or a plain number of
/// seconds (`0.5`).
///
/// Flags that schedule in a task's calendar (`--cooldown`, `--lead`) use
/// ``calendar``; flags that measure feed or wall time use ``seconds``, and
/// refuse months and years (their length varies).
struct DurationArgument: Hashable, Sendable, CustomStringConvertible {
    /// The duration as written.
    let description: String
    /// The calendar form; `nil` for a fractional duration.
    let calendar: CalendarDuration?
    /// Seconds, exact for s, m, h, d and w; `nil` for months and years.
    let seconds: Double?

    /// A whole number of `unit`s.
    init(_ value: Int, _ unit: CalendarDuration.Unit) {
        let duration = CalendarDuration(value, unit)
        description = duration.description
        calendar = duration
        seconds = Self.fixedSeconds(duration)
    }

    /// Parses the text of a flag.
    /// - Throws: a `ValidationError` that says what a duration looks like.
    static func parse(_ text: String) throws -> DurationArgument {
        if let plain = Double(text), plain >= 0, plain.isFinite {
            let whole = plain == plain.rounded() && plain < 1e9
            return DurationArgument(
                description: text, calendar: whole ? CalendarDuration(Int(plain), .seconds) : nil, seconds: plain)
        }
        if let duration = try? CalendarDuration(parsing: text) {
            return DurationArgument(description: text, calendar: duration, seconds: fixedSeconds(duration))
        }
        if let (fractional, exact) = fractionalSeconds(text) {
            // A whole number of seconds of an exact unit (1.5h) is the same in the calendar.
            let whole = exact && fractional == fractional.rounded() && fractional < 1e9
            return DurationArgument(
                description: text, calendar: whole ? CalendarDuration(Int(fractional), .seconds) : nil, seconds: fractional)
        }
        let what = text.hasPrefix("-") ? "is negative: a duration is 0 or more," : "is not a duration"
        throw ValidationError("'\(text)' \(what) like 45s, 0.5s, 30m, 6h, 3d, 2w, 1mo or 1y")
    }

    /// Seconds of a fractional count of a fixed unit (`0.5s`, `1.5h`,
    /// `250ms`), and whether the unit is exact in a calendar too (not a
    /// day or a week, which a DST change lengthens or shortens).
    private static func fractionalSeconds(_ text: String) -> (seconds: Double, exact: Bool)? {
        let number = text.prefix { $0.isNumber || $0 == "." }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
        let perUnit: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let value = Double(number), value >= 0, value.isFinite, let scale = perUnit[unit] else { return nil }
        return (value * scale, scale < 86_400)
    }

    private init(description: String, calendar: CalendarDuration?, seconds: Double?) {
        self.description = description
        self.calendar = calendar
        self.seconds = seconds
    }

    private static func fixedSeconds(_ duration: CalendarDuration) -> Double? {
        switch duration.unit {
        case .months, .years: return nil
        default: return duration.approximateSeconds
        }
    }

    /// The problem with this value for a flag that needs a fixed length.
    func fixedLengthProblem(flag: String) -> String? {
        seconds == nil ? "\(flag) '\(description)' must be a fixed duration (s, m, h, d, w)" : nil
    }

    /// The problem with this value for a flag that needs a calendar duration.
    func calendarProblem(flag: String) -> String? {
        guard calendar == nil else { return nil }
        guard let seconds, seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 else {
            return "\(flag) '\(description)' must be a whole number of seconds (e.g. 90s, 1.5h, 12h)"
        }
        // 1.5d: days follow the calendar, so a fraction of one has no length of its own.
        return "\(flag) '\(description)' must be a whole number of days or weeks: write \(Int(seconds / 3600))h"
    }
}
