import Foundation

/// Where a task stands at some moment, as the overview shows it.
public enum TaskState: String, Hashable, Sendable, CaseIterable {
    /// Nothing to do yet.
    case waiting
    /// The window opens within the lead time: windowStart − lead ≤ t < windowStart.
    case dueSoon = "due-soon"
    /// Inside the window: windowStart ≤ t ≤ due.
    case window
    /// Past due with no completion since: t > due.
    case overdue
    /// No more cycles: a `once` task done, or past the end.
    case finished
}

/// A task's state, cycle and progress at one moment.
public struct TaskStatus: Hashable, Sendable {
    /// The moment the status describes.
    public var time: Date
    /// waiting, due-soon, window, overdue or finished.
    public var state: TaskState
    /// The cycle in force; `nil` when finished.
    public var cycle: Cycle?
    /// The cycle's progress, 0…1 (1 when finished).
    public var progress: Double
    /// The last completion at or before ``time``.
    public var lastCompleted: Date?
}

extension RecurringTask {
    /// The task's status at `time`.
    ///
    /// - Parameter lead: a lead time that overrides the task's own.
    public func status(at time: Date, lead: CalendarDuration? = nil) -> TaskStatus {
        let lastCompleted = completions.last { $0 <= time }
        guard let cycle = cycle(at: time) else {
            return TaskStatus(time: time, state: .finished, cycle: nil, progress: 1, lastCompleted: lastCompleted)
        }
        let state: TaskState
        if time < start {
            state = .waiting
        } else if time > cycle.due {
            state = .overdue
        } else if time >= cycle.windowStart {
            state = .window
        } else if time >= calendar.subtracting(lead ?? self.lead, from: cycle.windowStart) {
            state = .dueSoon
        } else {
            state = .waiting
        }
        return TaskStatus(
            time: time, state: state, cycle: cycle, progress: cycle.progress(at: time),
            lastCompleted: lastCompleted)
    }
}
