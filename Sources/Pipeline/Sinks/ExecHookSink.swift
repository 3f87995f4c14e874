import Foundation
import Recurrence

/// `--exec CMD`: runs a shell command once per reminder, with the
/// reminder's fields in its environment.
///
/// The command runs through `/bin/sh -c` and is waited for, so hooks see
/// reminders in order, each after its line on stdout. Its standard input
/// is `/dev/null` (a hook that reads, such as `ssh` or `mail`, never
/// swallows a feed read from stdin) and its standard output goes to
/// stderr (it never mixes into `--json`). A command still running after
/// the timeout is stopped with everything it started (SIGTERM to its
/// process group, then SIGKILL two seconds later) and reported. Variables:
/// `REPEAT_KIND` (location | due), `REPEAT_TIME`, `REPEAT_TASK`,
/// `REPEAT_TITLE`, `REPEAT_DUE`, `REPEAT_WINDOW_START`, and for arrivals
/// `REPEAT_REGION`, `REPEAT_DEVICE`, `REPEAT_DISTANCE_M`; `REPEAT_JSON`
/// holds the whole JSON line. A failing command is reported (the first
/// five times) and the run goes on.
public final class ExecHookSink: RunSink {
    private let command: String
    private let output: ByteWriter
    private let timeout: Double
    private let warn: (String) -> Void
    private var failures = 0

    /// Runs `command` per reminder, flushing `output` (stdout) first so
    /// that the hook's own output comes after the line it is about; a run
    /// longer than `timeout` seconds is stopped.
    public init(command: String, output: ByteWriter, timeout: Double = 30, warn: @escaping (String) -> Void) {
        self.command = command
        self.output = output
        self.timeout = timeout
        self.warn = warn
    }

    /// The hook runs for reminders only.
    public var receivesFixes: Bool { false }

    public func receive(_ event: ReminderPipeline.Event) {
        guard case .reminder(.notify(let notification)) = event else { return }
        output.flush()
        run(for: notification, json: ReminderLines.jsonText(notification))
    }

    private func run(for notification: TaskNotification, json: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["REPEAT_KIND"] = notification.kind.rawValue
        environment["REPEAT_TIME"] = RFC3339Text.format(notification.time)
        environment["REPEAT_TASK"] = notification.taskID
        environment["REPEAT_TITLE"] = notification.title
        environment["REPEAT_DUE"] = RFC3339Text.format(notification.due)
        environment["REPEAT_WINDOW_START"] = RFC3339Text.format(notification.windowStart)
        environment["REPEAT_REGION"] = notification.region
        environment["REPEAT_DEVICE"] = notification.device
        environment["REPEAT_DISTANCE_M"] = notification.distance.map { String((($0 * 100).rounded() / 100)) }
        environment["REPEAT_JSON"] = json
        switch HookProcess.run(command, environment: environment, timeout: timeout) {
        case .exited(0): break
        case .exited(let status): report("exited with status \(status)")
        case .killed(let signal): report("was killed by signal \(signal)")
        case .timedOut: report("ran longer than \(ElapsedText.of(timeout)) and was stopped (--exec-timeout)")
        case .notStarted(let errorNumber): report("could not start: \(String(cString: strerror(errorNumber)))")
        }
    }

    private func report(_ problem: String) {
        failures += 1
        if failures <= 5 { warn("--exec command \(problem)") }
    }
}
