import Foundation

/// Somewhere reminders are recorded for good: the task store's
/// notification log. `TaskStore` implements it, so that `Pipeline` needs
/// no database.
public protocol NotificationLog: Sendable {
    /// Records one reminder; `taskID` is `nil` for a reminder of a region
    /// that is no task of the log's (an always-due region).
    func record(_ notification: TaskNotification, taskID: String?) throws
}

/// Writes every reminder to a ``NotificationLog`` as it fires. Put it
/// before the stdout sink: a kill -9 between the two loses the printed
/// line, never the record.
public final class NotificationLogSink: RunSink {
    private let log: any NotificationLog
    private let taskIDs: Set<String>
    private let warn: (String) -> Void

    /// Logs to `log`; reminders of tasks outside `taskIDs` are logged
    /// without a task. Failures go to `warn`, and the run goes on.
    public init(log: any NotificationLog, taskIDs: Set<String>, warn: @escaping (String) -> Void) {
        self.log = log
        self.taskIDs = taskIDs
        self.warn = warn
    }

    public func receive(_ event: ReminderPipeline.Event) {
        guard case .reminder(.notify(let notification)) = event else { return }
        do {
            try log.record(notification, taskID: taskIDs.contains(notification.taskID) ? notification.taskID : nil)
        } catch {
            warn("could not log the reminder in the store: \(error)")
        }
    }
}
