import ArgumentParser
import Pipeline

/// What `replay` and `live` print on stdout, and the hook per reminder.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @Flag(help: "Also print the raw geofence transitions (enter, exit, dwell, cross).")
    var transitions = false

    @Flag(help: "Also print arrivals and dues that did not remind, with the reason.")
    var explain = false

    @Option(
        help: ArgumentHelp(
            "Run this shell command once per reminder; its fields are in REPEAT_* environment variables.",
            discussion: """
                REPEAT_KIND, REPEAT_TIME, REPEAT_TASK, REPEAT_TITLE, REPEAT_DUE, REPEAT_WINDOW_START, \
                REPEAT_REGION, REPEAT_DEVICE, REPEAT_DISTANCE_M and REPEAT_JSON (the whole line). \
                Example: --exec 'notify-send "$REPEAT_TITLE" "$REPEAT_KIND at $REPEAT_REGION"'
                """,
            valueName: "command"))
    var exec: String?

    /// The lines to print; reminders unless only transitions were asked for
    /// without tasks.
    func printing(reminders: Bool) -> ReminderLinesSink.Printing {
        ReminderLinesSink.Printing(transitions: transitions, reminders: reminders, explain: explain, json: json)
    }
}
