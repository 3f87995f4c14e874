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
    /// The tasks' gate and due times; `nil` for a stage made without tasks.
    private var scheduler: NotificationScheduler?
    /// The stand-ins of a stage made without tasks.
    private var alwaysDue: AlwaysDueTasks?
    private let tasksByRegion: RegionTasks
    private let assignees: [String: String]

    /// The regions to watch: the bulk regions plus one circle per task
    /// place (a stage without tasks: each region's task is its name).
    public let regions: RegionTable

    /// A stage for `tasks` and the bulk `regions`.
    public init(tasks: [RecurringTask], regions bulk: [Region], settings: NotificationScheduler.Settings) {
        self.init(tasks: tasks, regions: RegionTable(bulk), settings: settings)
    }

    /// A stage for `tasks` and the bulk `regions`, kept as they are;
    /// `taskPositions`, when given, is the position of each task's id (see
    /// ``NotificationScheduler/init(tasks:positions:settings:)``).
    public init(
        tasks: [RecurringTask], taskPositions: NamePositions? = nil, regions bulk: RegionTable,
        settings: NotificationScheduler.Settings
    ) {
        var regions = bulk
        var tasksByRegion = RegionTasks()
        if tasks.isEmpty {
            regions = regions.namingTasks()
            alwaysDue = AlwaysDueTasks(regions: regions, settings: settings)
        } else {
            let scheduler = NotificationScheduler(tasks: tasks, positions: taskPositions, settings: settings)
            // Bulk regions naming a task the scheduler knows.
            for (key, task) in regions.namedTasks where scheduler.knows(taskID: task) { tasksByRegion.append(task, key: key) }
            // Tasks at the same place (same name, centre and radius) share
            // one region: one arrival there is one transition that asks each gate.
            var sharedPlaces: [Region: Int] = [:]
            var placeTasks: [Int: [String]] = [:]
            // By index, so that a task without places is passed over where
            // it lies: `for task in tasks` copied every task whole (100 000
            // tasks: 18 MB read on the main thread while the others
            // waited). A task with places is still copied, once.
            for index in tasks.indices where !tasks[index].locations.isEmpty {
                let task = tasks[index]
                for location in task.locations {
                    let place = Region(
                        id: location.name,
                        shape: .circle(
                            centre: Coordinate(latitude: location.latitude, longitude: location.longitude),
                            radius: location.radius))
                    if let key = sharedPlaces[place] {
                        if !placeTasks[key, default: []].contains(task.id) { placeTasks[key, default: []].append(task.id) }
                        continue
                    }
                    sharedPlaces[place] = regions.count
                    placeTasks[regions.count] = [task.id]
                    var region = place
                    region.task = task.id
                    regions.append(region)
                }
            }
            for key in placeTasks.keys.sorted() {
                for id in placeTasks[key]! { tasksByRegion.append(id, key: key) }
            }
            self.scheduler = scheduler
        }
        self.regions = regions
        self.tasksByRegion = tasksByRegion
        assignees = Dictionary(tasks.compactMap { task in task.assignee.map { (task.id, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The tasks an arrival at each region concerns, in the tasks' order
    /// (none for a region without a task, nor for the always-due stand-ins
    /// of a stage made without tasks).
    public var regionTasks: RegionTasks { tasksByRegion }

    /// Whether an arrival at any region asks a gate (a stage made without
    /// tasks, whose regions stand for always-due tasks).
    public var remindsEverywhere: Bool { alwaysDue != nil }

    /// Threads that may work out the tasks' cycles when the feed's clock
    /// starts (`--jobs`; see ``NotificationScheduler/threads``).
    public var threads: Int {
        get { scheduler?.threads ?? 1 }
        set { scheduler?.threads = newValue }
    }

    /// Takes new values of the tasks (completions recorded elsewhere, edited
    /// schedules, lead times) without losing what was already notified.
    /// Places are fixed when the stage is made, and so are the always-due
    /// tasks of a stage made without tasks (a store that is still empty
    /// does not take them away).
    public mutating func update(tasks: [RecurringTask]) {
        scheduler?.update(tasks: tasks)
    }

    /// Moves the feed clock; returns the due reminders that fell in between.
    public mutating func advance(to time: Timestamp) -> [SchedulerOutput] { advance(to: time, atMost: .max) }

    /// ``advance(to:)``, returning the first `limit` reminders at most and
    /// holding the rest back for ``takeHeld(atMost:)`` (see
    /// ``NotificationScheduler/advance(to:atMost:)``). The always-due
    /// stand-ins of a stage made without tasks hold nothing back.
    public mutating func advance(to time: Timestamp, atMost limit: Int) -> [SchedulerOutput] {
        let date = Date(timeIntervalSince1970: time.secondsSince1970)
        return scheduler?.advance(to: date, atMost: limit) ?? alwaysDue!.advance(to: date)
    }

    /// Whether reminders of the clock's last move are held back.
    public var holdsOutputs: Bool { scheduler?.holdsOutputs ?? false }

    /// The next `limit` reminders held back at most, in order.
    public mutating func takeHeld(atMost limit: Int) -> [SchedulerOutput] {
        scheduler?.takeHeld(atMost: limit) ?? []
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
                regionKey: key, region: regions.name(at: key), device: fix.device, at: time,
                distance: regions.shape(at: key).reportedDistance(from: fix.coordinate), blockedBy: .accuracy)
        }
    }

    private mutating func arrivals(
        regionKey: Int, region: String, device: String?, at time: Date, distance: Double, blockedBy: SuppressionCause?
    ) -> [SchedulerOutput] {
        if alwaysDue != nil {
            return [
                alwaysDue!.arrival(
                    regionKey: regionKey, at: time, region: region, device: device, distance: distance, blockedBy: blockedBy)
            ]
        }
        return tasksByRegion[regionKey].compactMap { id in
            if let assignee = assignees[id], assignee != device { return nil }
            return scheduler?.arrival(
                taskID: id, at: time, region: region, device: device, distance: distance, blockedBy: blockedBy)
        }
    }
}
