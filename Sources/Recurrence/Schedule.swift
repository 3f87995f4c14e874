import Foundation

/// How a task repeats.
///
/// Worked examples, all for a task starting Monday 2025-01-06 09:00 in
/// Europe/Berlin:
///
/// - `.once(due: 2025-02-01T12:00+01:00)`: due once, finished when done.
/// - `.afterCompletion(min: 10w, max: 14w)` ("start new after tap"): the
///   first window opens 2025-03-17 09:00 and the task is due 2025-04-14
///   09:00. Completed 2025-03-20 17:45, the next window opens 10 weeks after
///   *that* (2025-05-29 17:45) and it is due 2025-06-26 17:45 — a late
///   completion never makes the next cycle shorter.
/// - `.fixed(every: 2w)` ("start new in time"): due 2025-01-20, 2025-02-03, …
///   (start + k·2w). Completing early (2025-01-18) moves to the following
///   occurrence after the current due (2025-02-03); completing late
///   (2025-02-10) skips the missed ones (next due 2025-02-17).
/// - `.weekdays([.monday, .wednesday, .friday], at: 18:00)`: due at 18:00
///   local time on those days, strictly after the start; completions as for
///   `fixed`.
public enum Schedule: Hashable, Sendable {
    /// A one-off deadline.
    case once(due: Date)
    /// The next cycle is anchored on the last completion (or the start):
    /// the window opens at anchor + `min`, the task is due at anchor + `max`.
    /// `min == max` is a fixed interval counted from each completion.
    case afterCompletion(min: CalendarDuration, max: CalendarDuration)
    /// Occurrences at start + k·`every` (k ≥ 1), each computed from the start.
    case fixed(every: CalendarDuration)
    /// The selected weekdays at a local time of day.
    case weekdays(Set<Weekday>, at: TimeOfDay)

    /// Checks that the values make sense together.
    ///
    /// - Throws: ``RecurrenceError/invalidSchedule(_:)`` with the reason.
    public func validate() throws {
        switch self {
        case .once:
            return
        case .afterCompletion(let min, let max):
            guard max.value > 0 else {
                throw RecurrenceError.invalidSchedule("afterCompletion needs a max greater than zero, got \(max)")
            }
            guard min.approximateSeconds <= max.approximateSeconds else {
                throw RecurrenceError.invalidSchedule("afterCompletion min \(min) is longer than max \(max)")
            }
        case .fixed(let every):
            guard every.value > 0 else {
                throw RecurrenceError.invalidSchedule("fixed needs an interval greater than zero, got \(every)")
            }
        case .weekdays(let days, _):
            guard !days.isEmpty else {
                throw RecurrenceError.invalidSchedule("weekdays needs at least one day")
            }
        }
    }

    /// A short human description: `every 10–14w after completion`.
    public var summary: String {
        switch self {
        case .once(let due): return "once, due \(RFC3339Text.format(due))"
        case .afterCompletion(let min, let max) where min == max: return "\(max) after completion"
        case .afterCompletion(let min, let max): return "\(min)–\(max) after completion"
        case .fixed(let every): return "every \(every)"
        case .weekdays(let days, let time):
            return days.sorted().map(\.shortName).joined(separator: ",") + " at \(time)"
        }
    }
}
