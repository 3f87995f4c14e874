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
///
/// A device silent for the idle time of feed time is set aside in its least
/// memory and put back at its next fix (``IdleDevices``), which changes
/// nothing the pipeline hands on.
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
    public struct Statistics: Equatable, Sendable {
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
    public let regions: RegionTable
    private var monitor: MonitorLimit?
    private var released: [ReorderBuffer.Output] = []
    private var transitions: [Transition] = []
    /// (device, region) pairs whose inaccurate arrival was already reported
    /// since the device's last accepted fix.
    private var inaccurateArrivals: Set<DeviceRegion> = []
    private var idle: IdleDevices
    private var counts = Statistics()

    /// A pipeline over the reminder stage's regions and tasks.
    /// - Parameters:
    ///   - reorderSeconds: the reorder window (`--reorder-window`).
    ///   - monitorLimit: at most this many regions monitored per device
    ///     (`--monitor-limit`); `nil` monitors all.
    ///   - padding: metres added to every circle's radius for detection
    ///     only (`evaluate`'s `pad`; the default hysteresis follows the
    ///     padded radius); areas are used as they are.
    ///   - deviceIdleSeconds: the feed time after a device's newest fix
    ///     when it is set aside (`--device-idle`, default 1 h).
    public init(
        reminders: ReminderStage, geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0, deviceIdleSeconds: Double = 3600
    ) {
        idle = IdleDevices(limitSeconds: deviceIdleSeconds)
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: reminders.regions.padded(by: padding), settings: geofence)
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
        detecting regions: RegionTable, geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0, deviceIdleSeconds: Double = 3600
    ) {
        idle = IdleDevices(limitSeconds: deviceIdleSeconds)
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: regions.padded(by: padding), settings: geofence)
        self.regions = regions
        monitor = monitorLimit.map(MonitorLimit.init(limit:))
    }

    /// The tasks each region concerns, by key (none for regions without a
    /// task, and for a detection-only pipeline).
    public var regionTasks: RegionTasks { reminders?.regionTasks ?? RegionTasks() }

    /// What was counted so far.
    public var statistics: Statistics {
        var statistics = counts
        statistics.detector = detector.statistics
        statistics.devices = detector.deviceCount + idle.evaluatedCount
        statistics.monitorRefreshes = monitor?.refreshes ?? 0
        return statistics
    }

    /// The number of devices set aside now for having been idle.
    public var idleDeviceCount: Int { idle.count }

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
        restore(timed.device ?? "")
        released.removeAll(keepingCapacity: true)
        buffer.push(timed, into: &released)
        for output in released { handle(output, into: &events) }
        if let cutoff = idle.look(at: timed.time.nanoseconds) {
            for name in buffer.devices(silentSince: cutoff) { setAside(name) }
        }
    }

    /// Moves `device`'s clock on to `time` without a fix (a receiver epoch
    /// that had none): the fixes the reorder buffer held for longer than
    /// its window before `time` are released and evaluated.
    public mutating func advance(device: String?, to time: Timestamp, into events: inout [Event]) {
        let name = device ?? ""
        restore(name)
        released.removeAll(keepingCapacity: true)
        buffer.advance(device: name, to: time, into: &released)
        for output in released { handle(output, into: &events) }
    }

    /// Releases and evaluates everything the reorder buffer holds, without
    /// waiting for its window: a live source went quiet. Evaluation goes
    /// on; devices set aside are released too, and set aside again.
    public mutating func releaseHeld(into events: inout [Event]) {
        let setAside = idle.names
        for name in setAside { restore(name) }
        released.removeAll(keepingCapacity: true)
        buffer.releaseHeld(into: &released)
        for output in released { handle(output, into: &events) }
        for name in setAside { self.setAside(name) }
    }

    /// Releases and evaluates what the reorder buffer still holds, device
    /// by device in name order, those set aside included.
    public mutating func finish(into events: inout [Event]) {
        finish { events += $0 }
    }

    /// ``finish(into:)`` a device at a time: `body` gets each device's
    /// events in turn, so that a run with many devices never holds the
    /// events of all of them at once.
    public mutating func finish(each body: ([Event]) -> Void) {
        var events: [Event] = []
        for name in Set(buffer.deviceNames).union(idle.names).sorted() {
            let wasIdle = restore(name)
            released.removeAll(keepingCapacity: true)
            buffer.finish(device: name, into: &released)
            events.removeAll(keepingCapacity: true)
            for output in released { handle(output, into: &events) }
            body(events)
            if wasIdle { setAside(name) }
        }
    }

    /// Takes the device under `name` (`""` for fixes without a device) out
    /// of every stage into ``idle``.
    private mutating func setAside(_ name: String) {
        let arrivals = inaccurateArrivals.filter { ($0.device ?? "") == name }
        inaccurateArrivals.subtract(arrivals)
        let device = IdleDevice(
            buffer: buffer.remove(device: name), detector: detector.remove(device: name),
            monitor: monitor?.remove(device: name), inaccurateArrivals: Array(arrivals))
        idle.insert(device, name: name)
    }

    /// Puts the device under `name` back into every stage if it was set
    /// aside; returns whether it was.
    @discardableResult
    private mutating func restore(_ name: String) -> Bool {
        guard idle.count > 0, let device = idle.remove(name) else { return false }
        if let state = device.buffer { buffer.restore(state, device: name) }
        if let state = device.detector { detector.restore(state, device: name) }
        if let set = device.monitor { monitor?.restore(set, device: name) }
        inaccurateArrivals.formUnion(device.inaccurateArrivals)
        return true
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

/// A device and a region key.
struct DeviceRegion: Hashable, Sendable {
    var device: String?
    var region: Int
}
