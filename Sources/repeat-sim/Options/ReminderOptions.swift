import ArgumentParser
import Pipeline
import Recurrence

/// The reminder flags of `replay` and `live`: the recurrence gate's
/// settings, the platform's pending and monitor limits, what to explain
/// and the hook.
struct ReminderOptions: ParsableArguments {
    @Flag(help: "Also print arrivals and dues that did not remind, with the reason.")
    var explain = false

    @Option(help: ArgumentHelp("Quiet time after a location reminder, per task and cycle.", valueName: "duration"),
            transform: ArgumentParsers.duration)
    var cooldown: CalendarDuration = .twelveHours

    @Option(help: ArgumentHelp("Lead time for every task (overrides the tasks' own).", valueName: "duration"),
            transform: ArgumentParsers.duration)
    var lead: CalendarDuration?

    @Option(help: ArgumentHelp(
        "Run this shell command once per reminder; its fields are in REPEAT_* environment variables.",
        discussion: """
            REPEAT_KIND, REPEAT_TIME, REPEAT_TASK, REPEAT_TITLE, REPEAT_DUE, REPEAT_WINDOW_START, \
            REPEAT_REGION, REPEAT_DEVICE, REPEAT_DISTANCE_M and REPEAT_JSON (the whole line). \
            Example: --exec 'notify-send "$REPEAT_TITLE" "$REPEAT_KIND at $REPEAT_REGION"'
            """,
        valueName: "command"))
    var exec: String?

    @Option(help: ArgumentHelp("At most N time-based reminders armed at once (iOS: 64); the rest are missed.", valueName: "n"))
    var pendingLimit: Int?

    @Option(help: ArgumentHelp(
        "Monitor only the N regions nearest each device (iOS: 20), chosen again as it moves; entries elsewhere are missed.",
        valueName: "n"))
    var monitorLimit: Int?

    /// The scheduler settings these flags describe.
    var settings: NotificationScheduler.Settings {
        NotificationScheduler.Settings(cooldown: cooldown, lead: lead, pendingLimit: pendingLimit)
    }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let pendingLimit, pendingLimit < 1 { found.append("--pending-limit must be at least 1") }
        if let monitorLimit, monitorLimit < 1 { found.append("--monitor-limit must be at least 1") }
        return found
    }
}
