import Foundation
import GeoCore
import Geofencing
import Reporting

// The hover texts of the report's marks: what happened, when, where, why.
extension ReportSink {
    static func describe(_ transition: Transition) -> String {
        transition.kind.rawValue + " " + transition.region + " — " + Format.second(transition.time)
            + device(transition.device) + ", " + Format.metres(transition.distance) + " from its centre"
    }

    static func describe(_ notification: TaskNotification) -> String {
        let time = Timestamp(secondsSince1970: notification.time.timeIntervalSince1970)
        var text =
            (notification.kind == .location ? "location reminder: " : "due reminder: ") + notification.title
            + (notification.region.map { " at " + $0 } ?? "") + " — " + Format.second(time) + device(notification.device)
        text += "; window opened " + minute(notification.windowStart) + ", due " + minute(notification.due) + " UTC"
        return text
    }

    func describe(_ suppression: Suppression) -> String {
        let time = Timestamp(secondsSince1970: suppression.time.timeIntervalSince1970)
        return "suppressed (" + suppression.cause.reason + "): " + (titles[suppression.taskID] ?? suppression.taskID)
            + (suppression.region.map { " at " + $0 } ?? "") + " — " + Format.second(time) + Self.device(suppression.device)
            + "; " + Self.why(suppression.cause.kind)
    }

    /// Why a suppression stayed quiet, in words.
    static func why(_ kind: SuppressionKind) -> String {
        switch kind {
        case .notDue: return "the task was not due within its lead time"
        case .cooldown: return "a location reminder of this cycle was sent within the cooldown"
        case .completed: return "the task is finished"
        case .accuracy: return "the fix was less accurate than --max-accuracy allows"
        case .pendingLimit: return "the platform's pending limit was full"
        case .monitorLimit: return "the place was not among the regions the platform monitored"
        }
    }

    static func device(_ device: String?) -> String { device.map { ", device " + $0 } ?? "" }

    /// A task's date to the minute, whatever its year (a due date may lie past 2262).
    static func minute(_ date: Date) -> String { Format.minute(secondsSince1970: date.timeIntervalSince1970) }
}
