import Foundation
import Geofencing
import Recurrence

/// The always-due stand-ins of a ``ReminderStage`` made without tasks:
/// every region is a task named after it (regions with equal names share
/// one) whose window has been open since 1970 and that is due in 2200, so
/// every arrival may remind, subject to the cooldown.
///
/// The stand-ins share one schedule, so they are not ``RecurringTask``
/// values each: one template answers every gate question; a one-task
/// ``NotificationScheduler`` knows when the template falls due, and then
/// every stand-in does, in the order of their names, as a scheduler of all
/// of them would say it; and only the stand-ins that reminded remember
/// when. A run over ten million regions keeps nothing per region here.
struct AlwaysDueTasks: Sendable {
    /// The schedule of every stand-in.
    static let template = RecurringTask(
        id: "", title: "", start: Date(timeIntervalSince1970: 0),
        schedule: .afterCompletion(min: CalendarDuration(0, .seconds), max: CalendarDuration(230, .years)))

    private let regions: RegionTable
    private let settings: NotificationScheduler.Settings
    private var dues: NotificationScheduler
    /// Keys whose name repeats an earlier region's: that region's key,
    /// which stands for the task they share.
    private let repeated: [Int: Int]
    /// When each stand-in (by its first key) last reminded by place.
    private var lastLocation: [Int: Date] = [:]

    /// The stand-ins of `regions`.
    init(regions: RegionTable, settings: NotificationScheduler.Settings) {
        self.regions = regions
        self.settings = settings
        var unlimited = settings
        unlimited.pendingLimit = nil
        dues = NotificationScheduler(tasks: [Self.template], settings: unlimited)
        repeated = regions.repeatedNames()
    }

    /// Moves the clock to `time`; returns every stand-in's due reminder
    /// when the template falls due on the way (`--pending-limit` lets the
    /// first ones in name order fire).
    mutating func advance(to time: Date) -> [SchedulerOutput] {
        let fired = dues.advance(to: time)
        guard !fired.isEmpty else { return [] }
        let tasks = regions.indices.filter { repeated[$0] == nil }.sorted { regions.name(at: $0) < regions.name(at: $1) }
        var outputs: [SchedulerOutput] = []
        for case .notify(let due) in fired {
            for (rank, key) in tasks.enumerated() {
                let name = regions.name(at: key)
                if let limit = settings.pendingLimit, rank >= limit {
                    outputs.append(.suppress(Suppression(time: due.time, taskID: name, cause: .pendingLimit)))
                } else {
                    var notification = due
                    notification.taskID = name
                    notification.title = name
                    outputs.append(.notify(notification))
                }
            }
        }
        return outputs
    }

    /// The gate's answer to an arrival at the region under `key`.
    mutating func arrival(
        regionKey key: Int, at time: Date, region: String, device: String?, distance: Double, blockedBy: SuppressionCause?
    ) -> SchedulerOutput {
        let task = repeated[key] ?? key
        return NotificationScheduler.arrival(
            of: Self.template, taskID: regions.name(at: key), title: regions.name(at: task), at: time, region: region,
            device: device, distance: distance, blockedBy: blockedBy, settings: settings,
            lastLocationNotification: &lastLocation[task])
    }
}
