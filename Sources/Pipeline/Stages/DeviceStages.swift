import GeoCore
import Geofencing

/// The stages of the pipeline whose state is per device: reorder buffer →
/// fix filter and geofence detector → platform monitor limit, with the
/// devices set aside for being idle.
///
/// Nothing here depends on another device or on the tasks' state, so the
/// devices of a feed can be split between several of these, one per worker
/// thread or per `--shard`, and their ``DeviceOutputs`` handed to the one
/// tasks' side (``ReminderPipeline``) in the feed's order.
public struct DeviceStages: Sendable {
    private var buffer: ReorderBuffer
    private var detector: TransitionDetector
    private var monitor: MonitorLimit?
    /// The regions that take a place in a monitored set.
    private let reminding: RemindingRegions
    private var released: [ReorderBuffer.Output] = []
    private var transitions: [Transition] = []
    /// (device, region) pairs whose inaccurate arrival was already reported
    /// since the device's last accepted fix.
    private var inaccurateArrivals: Set<DeviceRegion> = []
    private var idle: IdleDevices

    /// Stages over `regions` (padded by `padding` metres for detection);
    /// see ``ReminderPipeline`` for the parameters.
    init(
        regions: RegionTable, reminding: RemindingRegions, geofence: GeofenceSettings, reorderSeconds: Double,
        monitorLimit: Int?, padding: Double, deviceIdleSeconds: Double
    ) {
        idle = IdleDevices(limitSeconds: deviceIdleSeconds)
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: regions.padded(by: padding), settings: geofence)
        monitor = monitorLimit.map(MonitorLimit.init(limit:))
        self.reminding = reminding
    }

    /// The stages of no device yet, with the same regions and settings (the
    /// regions and their index are shared, not copied).
    func emptied() -> DeviceStages {
        var stages = self
        stages.buffer = buffer.emptied()
        stages.detector = detector.emptied()
        stages.monitor = monitor.map { MonitorLimit(limit: $0.limit) }
        stages.inaccurateArrivals = []
        stages.idle = IdleDevices(limitNanoseconds: idle.limit)
        return stages
    }

    /// The detector's counts of accepted and ignored fixes.
    var detectorStatistics: DetectorStatistics { detector.statistics }

    /// The devices whose fixes were evaluated.
    var deviceCount: Int { detector.deviceCount + idle.evaluatedCount }

    /// How often devices chose their monitored regions.
    var monitorRefreshes: Int { monitor?.refreshes ?? 0 }

    /// The number of devices set aside now for having been idle.
    var idleDeviceCount: Int { idle.count }

    /// The number of fixes evaluated so far.
    var fixesEvaluated: Int { detector.statistics.accepted }

    /// The devices that hold state, set aside ones included, unordered.
    var deviceNames: Set<String> { Set(buffer.deviceNames).union(idle.names) }

    /// Takes one decoded fix and appends what it releases to `outputs`.
    mutating func push(_ fix: Fix, into outputs: inout DeviceOutputs) {
        guard let timed = TimedFix(fix) else { return outputs.appendUntimed(fix) }
        restore(timed.device ?? "")
        released.removeAll(keepingCapacity: true)
        buffer.push(timed, into: &released)
        for output in released { handle(output, into: &outputs) }
        if let cutoff = idle.look(at: timed.time.nanoseconds) {
            for name in buffer.devices(silentSince: cutoff) { setAside(name) }
        }
    }

    /// Moves `device`'s clock on to `time` without a fix (see
    /// ``ReminderPipeline/advance(device:to:into:)``).
    mutating func advance(device: String?, to time: Timestamp, into outputs: inout DeviceOutputs) {
        let name = device ?? ""
        restore(name)
        released.removeAll(keepingCapacity: true)
        buffer.advance(device: name, to: time, into: &released)
        for output in released { handle(output, into: &outputs) }
    }

    /// Releases and evaluates everything the reorder buffer holds (see
    /// ``ReminderPipeline/releaseHeld(into:)``).
    mutating func releaseHeld(into outputs: inout DeviceOutputs) {
        let setAside = idle.names
        for name in setAside { restore(name) }
        released.removeAll(keepingCapacity: true)
        buffer.releaseHeld(into: &released)
        for output in released { handle(output, into: &outputs) }
        for name in setAside { self.setAside(name) }
    }

    /// Releases and evaluates what the reorder buffer still holds of the
    /// device under `name`, set aside or not.
    mutating func finish(device name: String, into outputs: inout DeviceOutputs) {
        let wasIdle = restore(name)
        released.removeAll(keepingCapacity: true)
        buffer.finish(device: name, into: &released)
        for output in released { handle(output, into: &outputs) }
        if wasIdle { setAside(name) }
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

    private mutating func handle(_ output: ReorderBuffer.Output, into outputs: inout DeviceOutputs) {
        switch output {
        case .late(let fix):
            outputs.appendLate(fix)
        case .fix(let fix):
            evaluate(fix, into: &outputs)
        }
    }

    private mutating func evaluate(_ fix: TimedFix, into outputs: inout DeviceOutputs) {
        let device = fix.device
        if monitor.map({ !$0.hasSet(for: device) }) ?? false { refreshMonitor(at: fix.coordinate, device: device) }
        if !transitions.isEmpty { transitions.removeAll(keepingCapacity: true) }
        let disposition = detector.process(fix, into: &transitions)
        for transition in transitions {
            let unmonitored = monitor.map { !$0.isMonitored(transition.regionKey, device: device) } ?? false
            outputs.transitions.append(DeviceOutputs.Found(transition: transition, unmonitored: unmonitored))
        }
        var inaccurateKeys: Int?
        switch disposition {
        case .evaluated:
            if !inaccurateArrivals.isEmpty { inaccurateArrivals = inaccurateArrivals.filter { $0.device != device } }
            refreshMonitor(at: fix.coordinate, device: device)
        case .ignored(.inaccurate):
            let keys = detector.regionsUnentered(at: fix.fix).filter {
                inaccurateArrivals.insert(DeviceRegion(device: device, region: $0)).inserted
            }
            outputs.inaccurateKeys += keys
            inaccurateKeys = keys.count
        case .ignored(.invalid), .ignored(.outOfOrder):
            break
        }
        outputs.appendReleased(fix, transitions: transitions.count, inaccurateKeys: inaccurateKeys)
    }

    private mutating func refreshMonitor(at point: Coordinate, device: String?) {
        guard var monitor else { return }
        self.monitor = nil  // so that the set below is changed in place
        // Only regions that can remind take a place (an app registers its
        // tasks' places, not every region of the replay).
        monitor.observe(point, device: device) { point, count in
            detector.nearestRegions(to: point, count: count) { reminding.contains($0) }
        }
        self.monitor = monitor
    }
}

/// The regions whose arrivals ask a task's gate: every region, or those
/// that name a task.
struct RemindingRegions: Sendable {
    /// Every region reminds (a stage without tasks: always-due stand-ins;
    /// or a detection-only pipeline).
    var everywhere: Bool
    /// The tasks by region key, when not ``everywhere``.
    var tasks: RegionTasks

    /// Whether an arrival at the region under `key` asks a gate.
    func contains(_ key: Int) -> Bool { everywhere || tasks.contains(key: key) }
}
