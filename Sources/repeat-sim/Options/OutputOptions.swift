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
                The command's standard input is /dev/null and its standard output goes to stderr, \
                so it never reads the feed nor mixes into --json. \
                Example: --exec 'notify-send "$REPEAT_TITLE" "$REPEAT_KIND at $REPEAT_REGION"'
                """,
            valueName: "command"))
    var exec: String?

    @Option(
        help: ArgumentHelp(
            "Stop an --exec command that runs longer than this (reported), so a hung hook cannot stall the run. (default: 30s)",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var execTimeout = DurationArgument(30, .seconds)

    /// The `--exec` sink writing after `output`, or `nil` without `--exec`.
    func execHook(output: ByteWriter) -> ExecHookSink? {
        exec.map { ExecHookSink(command: $0, output: output, timeout: execTimeout.seconds ?? 30, warn: Console.warn) }
    }

    /// The lines to print; reminders unless only transitions were asked for
    /// without tasks.
    func printing(reminders: Bool) -> ReminderLinesSink.Printing {
        ReminderLinesSink.Printing(transitions: transitions, reminders: reminders, explain: explain, json: json)
    }
}
