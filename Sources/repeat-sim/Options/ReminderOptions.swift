import ArgumentParser
import Pipeline
import Recurrence

/// The reminder flags of `replay` and `live`: the recurrence gate's
/// settings and the platform's pending and monitor limits.
struct ReminderOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Quiet time after a location reminder, per task and cycle. (default: 12h)", valueName: "duration"),
        transform: DurationArgument.parse)
    var cooldown = DurationArgument(12, .hours)

    @Option(
        help: ArgumentHelp(
            "Lead time for every task, overriding the tasks' own (default: each task's, 24h unless set).",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var lead: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "At most N time-based reminders armed at once (iOS: 64); the rest are missed. (default: no limit)",
            valueName: "n"))
    var pendingLimit: Int?

    @Option(
        help: ArgumentHelp(
            "Monitor only the N regions nearest each device (iOS: 20), chosen again as it moves; entries elsewhere are missed. (default: all)",
            valueName: "n"))
    var monitorLimit: Int?

    /// The scheduler settings these flags describe (after ``problems()`` found none).
    var settings: NotificationScheduler.Settings {
        NotificationScheduler.Settings(
            cooldown: cooldown.calendar ?? .twelveHours, lead: lead?.calendar, pendingLimit: pendingLimit)
    }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let problem = cooldown.calendarProblem(flag: "--cooldown") { found.append(problem) }
        if let problem = lead?.calendarProblem(flag: "--lead") { found.append(problem) }
        if let pendingLimit, pendingLimit < 1 { found.append("--pending-limit must be at least 1") }
        if let monitorLimit, monitorLimit < 1 { found.append("--monitor-limit must be at least 1") }
        return found
    }
}

extension ReminderOptions {
    /// The limits the summary accounts for.
    func limits(_ geofence: GeofenceOptions) -> ReminderSummary.Limits {
        ReminderSummary.Limits(monitor: monitorLimit, pending: pendingLimit, maxAccuracy: geofence.maxAccuracy)
    }
}
