import Foundation

/// One round of a recurring task: from its anchor to its due date.
public struct Cycle: Hashable, Sendable {
    /// How many completions came before this cycle (0 for the first).
    public var number: Int
    /// What began the cycle: the last completion, or the task's start.
    public var began: Date
    /// Where the progress bar starts: the completion or previous occurrence
    /// the cycle is measured from.
    public var anchor: Date
    /// When the window opens (equals ``due`` except for `afterCompletion`).
    public var windowStart: Date
    /// When the task is due.
    public var due: Date

    /// How far the cycle has run at `time`: (t − anchor) / (due − anchor),
    /// clamped to 0…1. A cycle with no length is 0 before it is due, 1 after.
    public func progress(at time: Date) -> Double {
        let length = due.timeIntervalSince(anchor)
        guard length > 0 else { return time >= due ? 1 : 0 }
        return min(1, max(0, time.timeIntervalSince(anchor) / length))
    }
}

extension RecurringTask {
    /// The cycle in force at `time`, applying the completions made up to
    /// and including `time`; `nil` once the task is finished.
    ///
    /// Completions before ``start`` are ignored. The task is finished when a
    /// `once` task was completed, when `time` is after ``end``, or when the
    /// next due date would fall after ``end``.
    public func cycle(at time: Date) -> Cycle? {
        Self.cycle(
            at: time, start: start, end: end, schedule: schedule, calendar: ZonedCalendar(timeZone: timeZone),
            completions: completions)
    }

    /// ``cycle(at:)`` of a task with these fields, `calendar` of its zone.
    @usableFromInline
    static func cycle(
        at time: Date, start: Date, end: Date?, schedule: Schedule, calendar: ZonedCalendar, completions: [Date]
    ) -> Cycle? {
        // Completions are sorted: those made by `time`, and of them the
        // ones from the start on (counted), without copying them out.
        let made = completions.prefix { $0 <= time }
        let countedCount = made.reduce(0) { $1 >= start ? $0 + 1 : $0 }
        // A flexible task counts from its last completion even when that
        // came before the task was entered ("I last bought it on 1 Nov").
        let last = made.last
        let began = last.flatMap { $0 >= start ? $0 : nil } ?? start
        let cycle: Cycle
        switch schedule {
        case .once(let due):
            guard countedCount == 0 else { return nil }
            cycle = Cycle(number: 0, began: start, anchor: start, windowStart: due, due: due)
        case .afterCompletion(let min, let max):
            let anchor = last ?? start
            cycle = Cycle(
                number: countedCount, began: Swift.max(anchor, start), anchor: anchor,
                windowStart: calendar.adding(min, to: anchor), due: calendar.adding(max, to: anchor))
        case .fixed, .weekdays:
            let occurrences = OccurrenceGrid(start: start, schedule: schedule, calendar: calendar)
            // Each counted completion moves the due date to the first
            // occurrence after both it and the due date it met.
            var after = start
            for completion in made where completion >= start {
                after = Swift.max(completion, occurrences.first(after: after))
            }
            let (due, before) = occurrences.firstAndPrevious(after: after)
            let previous = before ?? start
            cycle = Cycle(
                number: countedCount, began: began, anchor: Swift.max(previous, began),
                windowStart: due, due: due)
        }
        if let end, time > end || cycle.due > end { return nil }
        return cycle
    }
}

extension UnsafePointer<RecurringTask> {
    /// The cycle of the task pointed to at `time` (see
    /// ``RecurringTask/cycle(at:)``), its fields read where the task is.
    /// A call on ``pointee`` copies the whole task first (184 bytes, a
    /// retain and a release of every field), which a scheduler working out
    /// the cycles of 100 000 tasks in an array paid at every one.
    @inlinable
    public func cycle(at time: Date) -> Cycle? {
        cycle(at: time, calendar: ZonedCalendar(timeZone: pointee.timeZone))
    }

    /// ``cycle(at:)`` with `calendar`, which must be of the task's zone (a
    /// calendar of its own for a thread among others: see
    /// ``ZonedCalendar/unshared(timeZone:)``).
    @inlinable
    public func cycle(at time: Date, calendar: ZonedCalendar) -> Cycle? {
        RecurringTask.cycle(
            at: time, start: pointee.start, end: pointee.end, schedule: pointee.schedule, calendar: calendar,
            completions: pointee.completions)
    }
}

/// The occurrences of a `fixed` or `weekdays` schedule.
struct OccurrenceGrid {
    /// The task's start, and its schedule (kept rather than the whole task:
    /// copying a task retains every field of it).
    let start: Date
    let schedule: Schedule
    /// The task's calendar, made once.
    let calendar: ZonedCalendar
    /// A `weekdays` schedule's days as bits (1 << rawValue): tested for
    /// every day walked, without hashing.
    private let dayBits: Int

    init(start: Date, schedule: Schedule, calendar: ZonedCalendar) {
        self.start = start
        self.schedule = schedule
        self.calendar = calendar
        if case .weekdays(let days, _) = schedule {
            dayBits = days.reduce(0) { $0 | 1 << $1.rawValue }
        } else {
            dayBits = 0
        }
    }

    /// Whether the day `days` since 1970-01-01 is one of the schedule's weekdays.
    private func isScheduled(day days: Int) -> Bool { dayBits & 1 << Weekday.of(daysSince1970: days).rawValue != 0 }

    /// The first occurrence strictly after `time` (and after the start).
    func first(after time: Date) -> Date {
        switch schedule {
        case .fixed(let every): fixedFirst(after: time, every).occurrence
        case .weekdays(_, let at): weekdayFirst(after: time, at: at)
        case .once, .afterCompletion: preconditionFailure("only fixed and weekdays schedules have an occurrence grid")
        }
    }

    /// The first occurrence strictly after `time` (and after the start),
    /// and the last one before it (`nil` when none comes after the start).
    func firstAndPrevious(after time: Date) -> (occurrence: Date, previous: Date?) {
        switch schedule {
        case .fixed(let every):
            return fixedFirst(after: time, every)
        case .weekdays(_, let at):
            let occurrence = weekdayFirst(after: time, at: at)
            return (occurrence, weekdayLast(before: occurrence, at: at))
        case .once, .afterCompletion:
            preconditionFailure("only fixed and weekdays schedules have an occurrence grid")
        }
    }

    /// ``first(after:)`` of a `weekdays` schedule at `at`.
    private func weekdayFirst(after time: Date, at: TimeOfDay) -> Date {
        let time = max(time, start)
        let today = calendar.day(of: time)
        for day in today...(today + 8) where isScheduled(day: day) {
            let instant = calendar.instant(onDay: day, at: at)
            if instant > time { return instant }
        }
        preconditionFailure("a non-empty weekday set has an occurrence within 8 days")
    }

    /// ``firstAndPrevious(after:)`` of a `fixed` schedule. Occurrence k is
    /// the first after `time` when k − 1 is not, so the one before it is
    /// known on the way: two or three steps where finding each on its own
    /// took six.
    private func fixedFirst(after time: Date, _ every: CalendarDuration) -> (occurrence: Date, previous: Date?) {
        let time = max(time, start)
        var k = estimate(every, at: time)
        var found = occurrence(k, every)
        // Occurrence k − 1 when k > 1 (none before the first).
        var previous: Date?
        while k > 1 {
            let earlier = occurrence(k - 1, every)
            guard earlier > time else {
                previous = earlier
                break
            }
            k -= 1
            found = earlier
        }
        while found <= time {
            k += 1
            previous = found
            found = occurrence(k, every)
        }
        return (found, previous)
    }

    /// The last occurrence of a `weekdays` schedule at `at` strictly
    /// before `time` and after the start, if any.
    private func weekdayLast(before time: Date, at: TimeOfDay) -> Date? {
        let today = calendar.day(of: time)
        for day in stride(from: today, through: today - 8, by: -1) where isScheduled(day: day) {
            let instant = calendar.instant(onDay: day, at: at)
            if instant < time { return instant > start ? instant : nil }
        }
        return nil
    }

    /// start + k·every, computed from the start in one step.
    private func occurrence(_ k: Int, _ every: CalendarDuration) -> Date {
        calendar.adding(every, times: k, to: start)
    }

    /// A guess of k with occurrence(k) near `time`, at least 1: exact to
    /// one or two for every unit, so the walks above take a step or two
    /// even for a task every second since 1970 (1.7·10⁹ occurrences).
    private func estimate(_ every: CalendarDuration, at time: Date) -> Int {
        let elapsed = time.timeIntervalSince(start) / every.approximateSeconds
        guard elapsed.isFinite, elapsed > 1 else { return 1 }
        return Int(min(elapsed, 1e15))
    }
}
