import Foundation
import GeoCore
import Geofencing
import Recurrence

/// The stages between a decoded feed and its reminders, as one state
/// machine on the feed's clock: reorder buffer → fix filter and geofence
/// detector → platform monitor limit → recurrence gate and scheduler.
///
/// ``push(_:into:)`` takes one decoded fix and appends what follows from it
/// as ``Event``s, in order: the fix once released in time order, then the
/// due reminders the clock passed on its way to the fix, then the fix's
/// transitions, each followed by the gate's decisions about it. There is no
/// clock and no I/O; `replay` and `live` print, pace and log the events.
public struct ReminderPipeline: Sendable {
    /// What the pipeline hands on.
    public enum Event: Sendable {
        /// A fix released in time order, before its consequences (the
        /// detector may still ignore it: see ``Statistics/detector``).
        case fix(TimedFix)
        /// A fix without time: it has no place on the clock and is skipped.
        case untimed(Fix)
        /// A fix older than its device's reorder window: dropped.
        case late(TimedFix)
        /// A raw geofence transition.
        case transition(Transition)
        /// A reminder, or an event that stayed quiet and why.
        case reminder(SchedulerOutput)
    }

    /// What a run counted, for its summary.
    public struct Statistics: Sendable {
        /// The detector's counts of accepted and ignored fixes.
        public var detector = DetectorStatistics()
        /// The devices whose fixes were evaluated.
        public var devices = 0
        /// Fixes without time.
        public var untimed = 0
        /// Fixes dropped by the reorder buffer.
        public var late = 0
        /// Transitions of every kind.
        public var transitions = 0
        /// Reminders by kind.
        public var notifications: [TaskNotification.Kind: Int] = [:]
        /// Suppressions by reason.
        public var suppressions: [SuppressionKind: Int] = [:]
        /// For each reason that stands for a missed reminder (a platform
        /// limit or the accuracy gate): the tasks it concerned.
        public var missedTasks: [SuppressionKind: Set<String>] = [:]
        /// How often devices chose their monitored regions.
        public var monitorRefreshes = 0
    }

    private var buffer: ReorderBuffer
    private var detector: TransitionDetector
    /// `nil` for a detection-only pipeline (`evaluate` without tasks).
    private var reminders: ReminderStage?
    /// The regions watched (bulk regions and task places), by key.
    public let regions: [Region]
    private var monitor: MonitorLimit?
    private var released: [ReorderBuffer.Output] = []
    private var transitions: [Transition] = []
    /// (device, region) pairs whose inaccurate arrival was already reported
    /// since the device's last accepted fix.
    private var inaccurateArrivals: Set<DeviceRegion> = []
    private var counts = Statistics()

    /// A pipeline over the reminder stage's regions and tasks.
    /// - Parameters:
    ///   - reorderSeconds: the reorder window (`--reorder-window`).
    ///   - monitorLimit: at most this many regions monitored per device
    ///     (`--monitor-limit`); `nil` monitors all.
    ///   - padding: metres added to every circle's radius for detection
    ///     only (`evaluate`'s `pad`; the default hysteresis follows the
    ///     padded radius); areas are used as they are.
    public init(
        reminders: ReminderStage, geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0
    ) {
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: reminders.regions.map { $0.padded(by: padding) }, settings: geofence)
        self.reminders = reminders
        regions = reminders.regions
        monitor = monitorLimit.map(MonitorLimit.init(limit:))
    }

    /// A pipeline that only detects: transitions of `regions`, no
    /// recurrence gate and no reminders (every region counts for the
    /// monitor limit), and no ``Event/fix(_:)`` events — only transitions
    /// and what the reorder buffer drops. Parameters as for the full
    /// pipeline.
    public init(
        detecting regions: [Region], geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0
    ) {
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: regions.map { $0.padded(by: padding) }, settings: geofence)
        self.regions = regions
        monitor = monitorLimit.map(MonitorLimit.init(limit:))
    }

    /// The tasks each region concerns, by key (empty lists for regions
    /// without a task, and for a detection-only pipeline).
    public var regionTasks: [[String]] {
        regions.indices.map { reminders?.tasks(atRegionKey: $0) ?? [] }
    }

    /// What was counted so far.
    public var statistics: Statistics {
        var statistics = counts
        statistics.detector = detector.statistics
        statistics.devices = detector.deviceCount
        statistics.monitorRefreshes = monitor?.refreshes ?? 0
        return statistics
    }

    /// The number of fixes evaluated so far (cheaper than ``statistics``).
    public var fixesEvaluated: Int { detector.statistics.accepted }

    /// Takes new values of the tasks (see ``ReminderStage/update(tasks:)``).
    public mutating func update(tasks: [RecurringTask]) { reminders?.update(tasks: tasks) }

    /// Takes one decoded fix and appends its consequences to `events`.
    public mutating func push(_ fix: Fix, into events: inout [Event]) {
        guard let timed = TimedFix(fix) else {
            counts.untimed += 1
            return events.append(.untimed(fix))
        }
        released.removeAll(keepingCapacity: true)
        buffer.push(timed, into: &released)
        for output in released { handle(output, into: &events) }
    }

    /// Moves `device`'s clock on to `time` without a fix (a receiver epoch
    /// that had none): the fixes the reorder buffer held for longer than
    /// its window before `time` are released and evaluated.
    public mutating func advance(device: String?, to time: Timestamp, into events: inout [Event]) {
        released.removeAll(keepingCapacity: true)
        buffer.advance(device: device ?? "", to: time, into: &released)
        for output in released { handle(output, into: &events) }
    }

    /// Releases and evaluates everything the reorder buffer holds, without
    /// waiting for its window: a live source went quiet. Evaluation goes on.
    public mutating func releaseHeld(into events: inout [Event]) {
        released.removeAll(keepingCapacity: true)
        buffer.releaseHeld(into: &released)
        for output in released { handle(output, into: &events) }
    }

    /// Releases and evaluates what the reorder buffer still holds.
    public mutating func finish(into events: inout [Event]) {
        for output in buffer.finish() { handle(output, into: &events) }
    }

    private mutating func handle(_ output: ReorderBuffer.Output, into events: inout [Event]) {
        switch output {
        case .late(let fix):
            counts.late += 1
            events.append(.late(fix))
        case .fix(let fix):
            if reminders != nil { events.append(.fix(fix)) }
            for decision in reminders?.advance(to: fix.time) ?? [] { record(decision, into: &events) }
            evaluate(fix, into: &events)
        }
    }

    private mutating func evaluate(_ fix: TimedFix, into events: inout [Event]) {
        let device = fix.device
        if monitor.map({ !$0.hasSet(for: device) }) ?? false { refreshMonitor(at: fix.coordinate, device: device) }
        transitions.removeAll(keepingCapacity: true)
        let disposition = detector.process(fix, into: &transitions)
        for transition in transitions {
            counts.transitions += 1
            events.append(.transition(transition))
            let unmonitored = monitor.map { !$0.isMonitored(transition.regionKey, device: device) } ?? false
            for decision in reminders?.handle(transition, blockedBy: unmonitored ? .monitorLimit : nil) ?? [] {
                record(decision, into: &events)
            }
        }
        switch disposition {
        case .evaluated:
            if !inaccurateArrivals.isEmpty { inaccurateArrivals = inaccurateArrivals.filter { $0.device != device } }
            refreshMonitor(at: fix.coordinate, device: device)
        case .ignored(.inaccurate):
            let keys = detector.regionsUnentered(at: fix.fix).filter {
                inaccurateArrivals.insert(DeviceRegion(device: device, region: $0)).inserted
            }
            for decision in reminders?.handleInaccurate(fix, regionKeys: keys) ?? [] { record(decision, into: &events) }
        case .ignored(.invalid), .ignored(.outOfOrder):
            break
        }
    }

    private mutating func refreshMonitor(at point: Coordinate, device: String?) {
        guard var monitor else { return }
        self.monitor = nil  // so that the set below is changed in place
        // Only regions that can remind take a place (an app registers its
        // tasks' places, not every region of the replay).
        monitor.observe(point, device: device) { point, count in
            detector.nearestRegions(to: point, count: count) { reminders?.remindsAt(regionKey: $0) ?? true }
        }
        self.monitor = monitor
    }

    private mutating func record(_ decision: SchedulerOutput, into events: inout [Event]) {
        switch decision {
        case .notify(let notification):
            counts.notifications[notification.kind, default: 0] += 1
        case .suppress(let suppression):
            counts.suppressions[suppression.cause.kind, default: 0] += 1
            if suppression.cause.isMissedReminder {
                counts.missedTasks[suppression.cause.kind, default: []].insert(suppression.taskID)
            }
        }
        events.append(.reminder(decision))
    }
}

extension Region {
    /// The region with `metres` added to a circle's radius (at least 1 cm
    /// is left); an area as it is.
    func padded(by metres: Double) -> Region {
        guard metres != 0, case .circle(var circle) = shape else { return self }
        circle.radius = max(circle.radius + metres, 0.01)
        return Region(id: id, shape: .circle(circle), task: task)
    }
}

/// A device and a region key.
private struct DeviceRegion: Hashable, Sendable {
    var device: String?
    var region: Int
}
