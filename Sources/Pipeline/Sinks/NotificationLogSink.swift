import Foundation
import GeoCore

/// Somewhere reminders are recorded for good: the task store's
/// notification log. `TaskStore` implements it, so that `Pipeline` needs
/// no database.
public protocol NotificationLog: Sendable {
    /// Records one reminder; `taskID` is `nil` for a reminder of a region
    /// that is no task of the log's (an always-due region). Returns `false`
    /// when the task is no longer in the log's store (removed while the run
    /// goes on): the reminder is recorded without it.
    func record(_ notification: TaskNotification, taskID: String?) throws -> Bool
}

/// Writes every reminder to a ``NotificationLog`` as it fires. Put it
/// before the stdout sink: a kill -9 between the two loses the printed
/// line, never the record.
///
/// A reminder of a task that was removed from the store meanwhile (`task
/// rm` while `live` runs) is still recorded, without its task; the first one
/// of each such task is reported, and ``onRemovedTask`` asks for the tasks
/// to be read again at once, so that it fires no more.
public final class NotificationLogSink: RunSink {
    private let log: any NotificationLog
    private let regionsOnly: Set<String>
    private let warn: (String) -> Void
    /// Called at the first reminder of each removed task: the run reads its tasks again.
    public var onRemovedTask: () -> Void = {}
    private var reportedRemovals: Set<String> = []

    /// Logs to `log`; reminders of `regionsOnly` (regions that are no task)
    /// are logged without a task. Failures go to `warn`, and the run goes on.
    public init(log: any NotificationLog, regionsOnly: Set<String>, warn: @escaping (String) -> Void) {
        self.log = log
        self.regionsOnly = regionsOnly
        self.warn = warn
    }

    /// The log takes reminders only.
    public var receivesFixes: Bool { false }

    public func receive(_ event: ReminderPipeline.Event) {
        guard case .reminder(.notify(let notification)) = event else { return }
        let taskID = regionsOnly.contains(notification.taskID) ? nil : notification.taskID
        do {
            let linked = try log.record(notification, taskID: taskID)
            if !linked, let taskID, reportedRemovals.insert(taskID).inserted {
                warn(
                    "task \(taskID.terminalSafe) is no longer in the store (removed?): its reminder is logged without it, "
                        + "and the tasks are read again now")
                onRemovedTask()
            }
        } catch {
            warn("could not log the reminder in the store: \(error)")
        }
    }
}
