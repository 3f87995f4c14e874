import Foundation
import Recurrence

/// A reminder that fires: an arrival at a task's place, or its due time.
public struct TaskNotification: Hashable, Sendable {
    /// Why it fired.
    public enum Kind: String, Hashable, Sendable {
        /// A region entry (or cross) for a task whose gate was open.
        case location
        /// The cycle's due time passed.
        case due
    }

    /// location or due.
    public var kind: Kind
    /// Feed time at which it fired.
    public var time: Date
    /// The task's id.
    public var taskID: String
    /// The task's title.
    public var title: String
    /// The region entered (location only).
    public var region: String?
    /// The device that entered it (location only).
    public var device: String?
    /// Distance from the region's centre in metres (location only).
    public var distance: Double?
    /// The cycle's due time.
    public var due: Date
    /// When the cycle's window opened.
    public var windowStart: Date
}

/// Why an event did not notify, beyond the recurrence gate's own reasons.
public enum SuppressionCause: Hashable, Sendable {
    /// The recurrence gate said no: not-due, cooldown or completed.
    case gate(SuppressionReason)
    /// The fix was less accurate than the accuracy gate allows; the gate
    /// was open, so this arrival would have reminded.
    case accuracy
    /// More time-based notifications were due at once than the platform's
    /// pending limit allows armed.
    case pendingLimit
    /// The region was not among those the platform monitored at that
    /// moment (the monitor limit); the gate was open, so this arrival would
    /// have reminded.
    case monitorLimit
}

/// Every reason an event stayed quiet, flat: the `reason` of DESIGN.md's
/// `suppressed` line, and the key of the run's counts.
public enum SuppressionKind: String, Hashable, Sendable, CaseIterable {
    /// The task is not due within its lead time (or not started).
    case notDue = "not-due"
    /// A location reminder of this cycle was sent within the cooldown.
    case cooldown
    /// The task is finished.
    case completed
    /// The fix was less accurate than the accuracy gate allows.
    case accuracy
    /// The platform's pending limit was full.
    case pendingLimit = "pending-limit"
    /// The region was outside the platform's monitored set.
    case monitorLimit = "monitor-limit"
}

extension SuppressionCause {
    /// The flat kind of the cause.
    public var kind: SuppressionKind {
        switch self {
        case .gate(.notDue): return .notDue
        case .gate(.cooldown): return .cooldown
        case .gate(.completed): return .completed
        case .accuracy: return .accuracy
        case .pendingLimit: return .pendingLimit
        case .monitorLimit: return .monitorLimit
        }
    }

    /// The `reason` of DESIGN.md's `suppressed` line.
    public var reason: String { kind.rawValue }

    /// Whether a reminder was lost to a platform limit or the accuracy
    /// gate (rather than held back by the task's own schedule).
    public var isMissedReminder: Bool {
        if case .gate = self { return false }
        return true
    }
}

/// An event that did not notify, and why (for `--explain`).
public struct Suppression: Hashable, Sendable {
    /// Feed time of the event.
    public var time: Date
    /// The task concerned.
    public var taskID: String
    /// Why it stayed quiet.
    public var cause: SuppressionCause
    /// The region, for arrivals.
    public var region: String?
    /// The device, for arrivals.
    public var device: String?
    /// Distance from the region's centre, for arrivals.
    public var distance: Double?
}

/// What the scheduler decided about one event.
public enum SchedulerOutput: Hashable, Sendable {
    /// Remind.
    case notify(TaskNotification)
    /// Stay quiet, and why.
    case suppress(Suppression)

    /// The feed time of the decision.
    public var time: Date {
        switch self {
        case .notify(let notification): return notification.time
        case .suppress(let suppression): return suppression.time
        }
    }
}
