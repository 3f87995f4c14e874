import Foundation
import Recurrence

/// The recurrence gate and the notification scheduler, as one state machine
/// on the feed's clock.
///
/// The driver calls ``advance(to:)`` before each fix (and once at the end)
/// so that due notifications fire at their own time, between fixes if need
/// be, then ``arrival(taskID:at:region:device:distance:)`` for every region
/// entry of a task. Completions written in the tasks come into force as the
/// clock passes them, because every decision asks the task for its cycle at
/// that moment.
///
/// - A task already overdue when the clock starts gets its due notification
///   at the clock's first time.
/// - Each cycle gets at most one due notification.
/// - With a pending limit N, at most N due notifications can fire at one
///   instant (an app re-arms the N soonest at every wake-up, so only dues
///   that pile up at the same moment — typically the overdue burst at the
///   start, or many tasks due at the same minute — are missed); the rest are
///   suppressed with `pending-limit`.
public struct NotificationScheduler: Sendable {
    /// Settings that override the tasks' own.
    public struct Settings: Hashable, Sendable {
        /// How long after a location reminder the same cycle stays quiet.
        public var cooldown: CalendarDuration
        /// Overrides every task's lead time.
        public var lead: CalendarDuration?
        /// At most this many time-based notifications armed at once.
        public var pendingLimit: Int?

        /// Creates settings; defaults are DESIGN.md's (12 h cooldown, the
        /// tasks' leads, no pending limit).
        public init(cooldown: CalendarDuration = .twelveHours, lead: CalendarDuration? = nil, pendingLimit: Int? = nil) {
            self.cooldown = cooldown
            self.lead = lead
            self.pendingLimit = pendingLimit
        }
    }

    private struct TaskState: Sendable {
        var task: RecurringTask
        var position: Int
        var lastLocationNotification: Date?
        var lastDueNotified: Date?
    }

    private var states: [String: TaskState]
    private let settings: Settings
    private var clock: Date?
    /// Tasks by the time of their next due or completion, soonest last, so
    /// that a fix costs nothing for tasks with nothing happening.
    private var agenda: [(time: Date, id: String)] = []

    /// A scheduler for `tasks`.
    public init(tasks: [RecurringTask], settings: Settings = Settings()) {
        self.settings = settings
        var states: [String: TaskState] = [:]
        for (position, task) in tasks.enumerated() where states[task.id] == nil {
            states[task.id] = TaskState(task: task, position: position)
        }
        self.states = states
    }

    /// The feed time reached so far.
    public var now: Date? { clock }

    /// Moves the clock to `time` and returns the due notifications that
    /// fall in between, in time order. A time before the clock is ignored.
    public mutating func advance(to time: Date) -> [SchedulerOutput] {
        guard clock.map({ time > $0 }) ?? true else { return [] }
        let start = clock ?? time
        let ready: [String]
        if clock == nil {
            ready = Array(states.keys)
        } else {
            var popped: [String] = []
            while let next = agenda.last, next.time <= time {
                popped.append(next.id)
                agenda.removeLast()
            }
            ready = popped
        }
        clock = time
        var dues: [(time: Date, position: Int, id: String, cycle: Cycle)] = []
        for id in ready {
            guard var state = states[id] else { continue }
            dues += Self.dues(of: &state, from: start, through: time).map { ($0.time, state.position, id, $0.cycle) }
            states[id] = state
            if let next = Self.nextEvent(of: state, after: time) { schedule(id, at: next) }
        }
        dues.sort { ($0.time, $0.position) < ($1.time, $1.position) }
        var outputs: [SchedulerOutput] = []
        var firedAtInstant: (time: Date, count: Int)?
        for due in dues {
            let count = firedAtInstant?.time == due.time ? firedAtInstant!.count : 0
            if let limit = settings.pendingLimit, count >= limit {
                outputs.append(.suppress(Suppression(time: due.time, taskID: due.id, cause: .pendingLimit)))
                continue
            }
            firedAtInstant = (due.time, count + 1)
            let task = states[due.id]!.task
            outputs.append(
                .notify(
                    TaskNotification(
                        kind: .due, time: due.time, taskID: task.id, title: task.title, due: due.cycle.due,
                        windowStart: due.cycle.windowStart)))
        }
        return outputs
    }

    private mutating func schedule(_ id: String, at time: Date) {
        let index = agenda.partitioningIndex { $0.time >= time }
        agenda.insert((time, id), at: index)
    }

    /// When something next happens to a task after `time`: its unnotified
    /// due time or its next completion.
    private static func nextEvent(of state: TaskState, after time: Date) -> Date? {
        guard let cycle = state.task.cycle(at: time) else { return nil }
        let completion = state.task.completions.first { $0 > time }
        let due = state.lastDueNotified == cycle.due ? nil : Swift.max(cycle.due, time.addingTimeInterval(1e-6))
        switch (due, completion) {
        case let (d?, c?): return Swift.min(d, c)
        case let (d?, nil): return d
        case let (nil, c?): return c
        case (nil, nil): return nil
        }
    }

    /// Replaces the tasks' values (new completions from another shell, an
    /// edited schedule) while keeping what was already notified; tasks not
    /// known before are added, tasks no longer given are dropped.
    public mutating func update(tasks: [RecurringTask]) {
        var updated: [String: TaskState] = [:]
        for (position, task) in tasks.enumerated() where updated[task.id] == nil {
            var state = states[task.id] ?? TaskState(task: task, position: position)
            state.task = task
            state.position = position
            updated[task.id] = state
        }
        states = updated
        agenda.removeAll()
        guard let clock else { return }
        for (id, state) in states {
            if let next = Self.nextEvent(of: state, after: clock) { schedule(id, at: next) }
        }
    }

    /// The recurrence gate's answer to an arrival at one of a task's places;
    /// `nil` for an unknown task. With `blockedBy`, an arrival that the gate
    /// would let through is suppressed for that cause instead (a platform
    /// limit or the accuracy gate kept it from the app) and changes nothing.
    public mutating func arrival(
        taskID: String, at time: Date, region: String?, device: String?, distance: Double?,
        blockedBy: SuppressionCause? = nil
    ) -> SchedulerOutput? {
        guard var state = states[taskID] else { return nil }
        let decision = state.task.locationDecision(
            at: time, lastLocationNotification: state.lastLocationNotification, cooldown: settings.cooldown,
            lead: settings.lead)
        func suppression(_ cause: SuppressionCause) -> SchedulerOutput {
            .suppress(Suppression(time: time, taskID: taskID, cause: cause, region: region, device: device, distance: distance))
        }
        switch decision {
        case .suppress(let reason):
            return suppression(.gate(reason))
        case .notify where blockedBy != nil:
            return suppression(blockedBy!)
        case .notify(let cycle):
            state.lastLocationNotification = time
            states[taskID] = state
            return .notify(
                TaskNotification(
                    kind: .location, time: time, taskID: taskID, title: state.task.title, region: region, device: device,
                    distance: distance, due: cycle.due, windowStart: cycle.windowStart))
        }
    }

    /// The due times of `state`'s cycles that the clock passes on its way
    /// from `start` to `end`, each cycle once; a cycle already overdue at
    /// `start` fires at `start`.
    private static func dues(of state: inout TaskState, from start: Date, through end: Date) -> [(time: Date, cycle: Cycle)] {
        var found: [(Date, Cycle)] = []
        var cursor = start
        while let cycle = state.task.cycle(at: cursor) {
            let nextCompletion = state.task.completions.first { $0 > cursor && $0 <= end }
            let notified = state.lastDueNotified == cycle.due
            if !notified, cycle.due <= end, nextCompletion.map({ $0 > cycle.due }) ?? true {
                let time = max(cycle.due, start)
                found.append((time, cycle))
                state.lastDueNotified = cycle.due
                cursor = time
                continue
            }
            guard let completion = nextCompletion else { break }
            cursor = completion
        }
        return found
    }
}

extension Array {
    /// The first index whose element does not satisfy `belongsBefore`
    /// (the array must be partitioned by it).
    fileprivate func partitioningIndex(where belongsBefore: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
