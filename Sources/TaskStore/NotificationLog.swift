import Foundation
import Pipeline

extension TaskDatabase: NotificationLog {
    /// Records a reminder in the notification log (see ``log(_:)``);
    /// `false` when its task is no longer in the store.
    public func record(_ notification: TaskNotification, taskID: String?) throws -> Bool {
        try log(
            NotificationRecord(
                taskID: taskID, kind: notification.kind == .due ? .due : .location,
                firedAt: notification.time, title: notification.title, region: notification.region,
                device: notification.device, distance: notification.distance, windowStart: notification.windowStart,
                due: notification.due, recordedAt: Date())
        ).taskID != nil || taskID == nil
    }
}
