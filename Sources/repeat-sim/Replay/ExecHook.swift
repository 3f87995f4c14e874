import Foundation
import Pipeline
import Recurrence

/// `--exec CMD`: runs a shell command once per reminder, with the
/// reminder's fields in its environment.
///
/// The command runs through `/bin/sh -c` and is waited for, so hooks see
/// reminders in order. Variables: `REPEAT_KIND` (location | due),
/// `REPEAT_TIME`, `REPEAT_TASK`, `REPEAT_TITLE`, `REPEAT_DUE`,
/// `REPEAT_WINDOW_START`, and for arrivals `REPEAT_REGION`, `REPEAT_DEVICE`,
/// `REPEAT_DISTANCE_M`; `REPEAT_JSON` holds the whole JSON line. A failing
/// command is reported on stderr and the replay goes on.
struct ExecHook {
    /// The shell command.
    let command: String
    private(set) var failures = 0

    /// Runs the command for one reminder.
    mutating func run(for notification: TaskNotification, json: String) {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                report("exited with status \(process.terminationStatus)")
            }
        } catch {
            report("could not start: \(error)")
        }
    }

    private mutating func report(_ problem: String) {
        failures += 1
        if failures <= 5 { Diagnostics.warn("--exec command \(problem)") }
    }
}
