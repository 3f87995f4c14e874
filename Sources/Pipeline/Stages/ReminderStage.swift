import Foundation
import GeoCore
import Geofencing
import Recurrence

/// Turns the feed clock and geofence transitions into reminders: the join
/// of the geofence detector and the recurrence gate.
///
/// Regions name their task (`Region.task`); a task's own locations become
/// regions named after the place. An `enter` or `cross` of a region asks the
/// gate of its task — only for the task's assignee, when it has one. With no
/// tasks at all, every region behaves as an always-due task named after it
/// (geofence-only evaluations), still subject to the cooldown.
public struct ReminderStage: Sendable {
    private var scheduler: NotificationScheduler
    private let tasksByRegion: [Int: [String]]
    private let assignees: [String: String]

    /// The regions to watch: `regions` plus one circle per task location.
    public let regions: [Region]
    /// The tasks made up for the regions when the stage was made without
    /// tasks; empty otherwise.
    private let alwaysDue: [RecurringTask]

    /// A stage for `tasks` and the bulk `regions`.
    public init(tasks: [RecurringTask], regions bulk: [Region], settings: NotificationScheduler.Settings) {
        var regions = bulk
        // Tasks at the same place (same name, centre and radius) share one
        // region: one arrival there is one transition that asks each gate.
        var sharedPlaces: [Region: Int] = [:]
        var placeTasks: [Int: [String]] = [:]
        for task in tasks {
            for location in task.locations {
                let place = Region(
                    id: location.name,
                    shape: .circle(
                        centre: Coordinate(latitude: location.latitude, longitude: location.longitude),
                        radius: location.radius))
                if let key = sharedPlaces[place] {
                    if !(placeTasks[key]?.contains(task.id) ?? false) { placeTasks[key, default: []].append(task.id) }
                    continue
                }
                sharedPlaces[place] = regions.count
                placeTasks[regions.count] = [task.id]
                var region = place
                region.task = task.id
                regions.append(region)
            }
        }
        var tasks = tasks
        var alwaysDue: [RecurringTask] = []
        if tasks.isEmpty {
            for index in regions.indices {
                regions[index].task = regions[index].id
            }
            tasks = Dictionary(regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }).keys.sorted().map(
                Self.alwaysDue)
            alwaysDue = tasks
        }
        self.alwaysDue = alwaysDue
        let known = Set(tasks.map(\.id))
        var tasksByRegion: [Int: [String]] = [:]
        for (key, region) in regions.enumerated() {
            let regionTasks = placeTasks[key] ?? region.task.map { [$0] } ?? []
            for task in regionTasks where known.contains(task) {
                tasksByRegion[key, default: []].append(task)
            }
        }
        self.regions = regions
        self.tasksByRegion = tasksByRegion
        assignees = Dictionary(tasks.compactMap { task in task.assignee.map { (task.id, $0) } }, uniquingKeysWith: { a, _ in a })
        scheduler = NotificationScheduler(tasks: tasks, settings: settings)
    }

    /// The tasks an arrival at the region under `key` concerns, in the
    /// tasks' order (none for a region without a task, nor for the
    /// always-due stand-ins of a stage made without tasks).
    public func tasks(atRegionKey key: Int) -> [String] { alwaysDue.isEmpty ? tasksByRegion[key] ?? [] : [] }

    /// Whether an arrival at the region under `key` asks a task's gate.
    public func remindsAt(regionKey key: Int) -> Bool { tasksByRegion[key] != nil }

    /// Takes new values of the tasks (completions recorded elsewhere, edited
    /// schedules, lead times) without losing what was already notified.
    /// Places are fixed when the stage is made, and so are the always-due
    /// tasks of a stage made without tasks (a store that is still empty
    /// does not take them away).
    public mutating func update(tasks: [RecurringTask]) {
        scheduler.update(tasks: alwaysDue.isEmpty ? tasks : alwaysDue)
    }

    /// Moves the feed clock; returns the due reminders that fell in between.
    public mutating func advance(to time: Timestamp) -> [SchedulerOutput] {
        scheduler.advance(to: Date(timeIntervalSince1970: time.secondsSince1970))
    }

    /// The gate's answers to one transition (none for exits and dwells).
    /// With `blockedBy`, arrivals the gate would let through are suppressed
    /// for that cause (the region was not monitored).
    public mutating func handle(_ transition: Transition, blockedBy: SuppressionCause? = nil) -> [SchedulerOutput] {
        guard transition.kind == .enter || transition.kind == .cross else { return [] }
        let time = Date(timeIntervalSince1970: transition.time.secondsSince1970)
        return arrivals(
            regionKey: transition.regionKey, region: transition.region, device: transition.device, at: time,
            distance: transition.distance, blockedBy: blockedBy)
    }

    /// The arrivals an inaccurate `fix` would have made at the regions under
    /// `regionKeys`: suppressed with `accuracy` where the gate was open, the
    /// gate's own reason elsewhere.
    public mutating func handleInaccurate(_ fix: TimedFix, regionKeys: [Int]) -> [SchedulerOutput] {
        let stamp = fix.time
        let time = Date(timeIntervalSince1970: stamp.secondsSince1970)
        return regionKeys.flatMap { key in
            arrivals(
                regionKey: key, region: regions[key].id, device: fix.device, at: time,
                distance: regions[key].shape.reportedDistance(from: fix.coordinate), blockedBy: .accuracy)
        }
    }

    private mutating func arrivals(
        regionKey: Int, region: String, device: String?, at time: Date, distance: Double, blockedBy: SuppressionCause?
    ) -> [SchedulerOutput] {
        guard let tasks = tasksByRegion[regionKey] else { return [] }
        return tasks.compactMap { id in
            if let assignee = assignees[id], assignee != device { return nil }
            return scheduler.arrival(
                taskID: id, at: time, region: region, device: device, distance: distance, blockedBy: blockedBy)
        }
    }

    /// A task whose window has been open since 1970 and that is due in
    /// 2200: every arrival may remind, no due time fires in a real feed.
    private static func alwaysDue(_ id: String) -> RecurringTask {
        RecurringTask(
            id: id, title: id, start: Date(timeIntervalSince1970: 0),
            schedule: .afterCompletion(min: CalendarDuration(0, .seconds), max: CalendarDuration(230, .years)))
    }
}
