import Foundation

/// Why an arrival at a task's place did not notify.
public enum SuppressionReason: String, Hashable, Sendable, CaseIterable {
    /// The task is not yet due within its lead time (or not yet started).
    case notDue = "not-due"
    /// A location notification for this cycle was sent within the cooldown.
    case cooldown
    /// The task is finished: done once, or past its end.
    case completed
}

/// The recurrence gate's answer for one arrival.
public enum GateDecision: Hashable, Sendable {
    /// Remind now.
    case notify(Cycle)
    /// Stay quiet, and why.
    case suppress(SuppressionReason)
}

extension RecurringTask {
    /// Whether an arrival at one of the task's places at `time` may notify.
    ///
    /// The gate is open when the task is active (started, not finished),
    /// `time ≥ windowStart − lead`, and no location notification of the same
    /// cycle was sent within `cooldown` before `time`. With `min == max`
    /// and a 24 h lead this is exactly "remind on arrival only if due within
    /// 24 hours".
    ///
    /// - Parameters:
    ///   - lastLocationNotification: when this task last notified by place.
    ///     One sent before the current cycle began does not count.
    ///   - lead: overrides the task's lead time.
    public func locationDecision(
        at time: Date, lastLocationNotification: Date?,
        cooldown: CalendarDuration = .twelveHours, lead: CalendarDuration? = nil
    ) -> GateDecision {
        guard let cycle = cycle(at: time) else { return .suppress(.completed) }
        guard time >= start,
            time >= calendar.subtracting(lead ?? self.lead, from: cycle.windowStart)
        else { return .suppress(.notDue) }
        if let last = lastLocationNotification, last >= cycle.began, last <= time,
            time < calendar.adding(cooldown, to: last)
        {
            return .suppress(.cooldown)
        }
        return .notify(cycle)
    }
}
