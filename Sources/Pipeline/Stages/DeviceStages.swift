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
    private var evaluation: DeviceEvaluation
    private var idle: IdleDevices

    /// Stages over `regions` (padded by `padding` metres for detection);
    /// see ``ReminderPipeline`` for the parameters.
    init(
        regions: RegionTable, reminding: RemindingRegions, geofence: GeofenceSettings, reorderSeconds: Double,
        monitorLimit: Int?, padding: Double, deviceIdleSeconds: Double
    ) {
        idle = IdleDevices(limitSeconds: deviceIdleSeconds)
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        evaluation = DeviceEvaluation(
            regions: regions, reminding: reminding, geofence: geofence, monitorLimit: monitorLimit, padding: padding)
    }

    /// The stages of no device yet, with the same regions and settings (the
    /// regions and their index are shared, not copied).
    func emptied() -> DeviceStages {
        var stages = self
        stages.buffer = buffer.emptied()
        stages.evaluation = evaluation.emptied()
        stages.idle = IdleDevices(limitNanoseconds: idle.limit)
        return stages
    }

    /// The stages of no device yet over the same regions and index (and
    /// padding), with other settings; see ``ReminderPipeline`` for them.
    func emptied(
        geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int?, deviceIdleSeconds: Double
    ) -> DeviceStages {
        var stages = self
        stages.buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        stages.evaluation = evaluation.emptied(geofence: geofence, monitorLimit: monitorLimit)
        stages.idle = IdleDevices(limitSeconds: deviceIdleSeconds)
        return stages
    }

    /// The detector's counts of accepted and ignored fixes.
    var detectorStatistics: DetectorStatistics { evaluation.detector.statistics }

    /// The devices whose fixes were evaluated.
    var deviceCount: Int { evaluation.detector.deviceCount + idle.evaluatedCount }

    /// How often devices chose their monitored regions.
    var monitorRefreshes: Int { evaluation.monitor?.refreshes ?? 0 }

    /// The number of devices set aside now for having been idle.
    var idleDeviceCount: Int { idle.count }

    /// Whether the outputs keep each released fix, not only its time
    /// (true unless the tasks' side reads no fix: see
    /// ``ReminderPipeline/emitsFixes``).
    var keepsReleasedFixes: Bool {
        get { evaluation.keepsReleasedFixes }
        set { evaluation.keepsReleasedFixes = newValue }
    }

    /// The number of fixes evaluated so far.
    var fixesEvaluated: Int { evaluation.detector.statistics.accepted }

    /// The devices that hold state, set aside ones included, unordered
    /// (a device set aside has left the buffer, so none comes twice).
    var deviceIDs: [DeviceID] { buffer.deviceIDs + idle.ids }

    /// Takes one decoded fix and appends what it releases to `outputs`.
    mutating func push(_ fix: consuming Fix, into outputs: inout DeviceOutputs) {
        guard let time = fix.time?.nanoseconds else { return outputs.appendUntimed(fix) }
        if idle.count > 0 { restore(fix.deviceID ?? .unnamed) }
        buffer.push(TimedFix(fix).unsafelyUnwrapped) { evaluation.handle($0, into: &outputs) }
        if let cutoff = idle.look(at: time) {
            for id in buffer.devices(silentSince: cutoff) { setAside(id) }
        }
    }

    /// Moves `device`'s clock on to `time` without a fix (see
    /// ``ReminderPipeline/advance(device:to:into:)``).
    mutating func advance(device: String?, to time: Timestamp, into outputs: inout DeviceOutputs) {
        let id = device.map(DeviceID.init) ?? .unnamed
        restore(id)
        buffer.advance(device: id, to: time) { evaluation.handle($0, into: &outputs) }
    }

    /// Releases and evaluates everything the reorder buffer holds (see
    /// ``ReminderPipeline/releaseHeld(into:)``).
    mutating func releaseHeld(into outputs: inout DeviceOutputs) {
        let setAside = idle.ids
        for id in setAside { restore(id) }
        buffer.releaseHeld { evaluation.handle($0, into: &outputs) }
        for id in setAside { self.setAside(id) }
    }

    /// Releases and evaluates what the reorder buffer still holds of the
    /// device `id`, set aside or not.
    mutating func finish(device id: DeviceID, into outputs: inout DeviceOutputs) {
        let wasIdle = restore(id)
        buffer.finish(device: id) { evaluation.handle($0, into: &outputs) }
        if wasIdle { setAside(id) }
    }

    /// ``finish(device:into:)`` for every device, in name order, a chunk
    /// of at most `chunk` devices at a time: `body` gets each chunk's
    /// devices and outputs (each device's ended by
    /// ``DeviceOutputs/endInput()``), and whether it is the last chunk. A
    /// stage without devices hands on one empty last chunk. What a worker
    /// thread does at the end of a run (``ShardedStages``): the caller can
    /// act on a chunk while the next is finished, and the chunks' outputs,
    /// not 100 000 devices' at once, are new memory.
    mutating func finishAll(
        chunk: Int, each body: (_ devices: [DeviceID], _ outputs: DeviceOutputs, _ isLast: Bool) -> Void
    ) {
        let devices = deviceIDs.byName()
        var start = 0
        repeat {
            let end = min(start + max(1, chunk), devices.count)
            // A device holds a fix or so at the end: room for them saves
            // the arrays' doublings.
            var outputs = DeviceOutputs()
            outputs.reserve(inputs: end - start)
            for id in devices[start..<end] {
                finish(device: id, into: &outputs)
                outputs.endInput()
            }
            body(Array(devices[start..<end]), outputs, end == devices.count)
            start = end
        } while start < devices.count
    }

    /// Takes the device `id` (``DeviceID/unnamed`` for fixes without a
    /// device) out of every stage into ``idle``.
    private mutating func setAside(_ id: DeviceID) {
        let (detector, monitor, arrivals) = evaluation.remove(device: id)
        let device = IdleDevice(
            buffer: buffer.remove(device: id), detector: detector, monitor: monitor, inaccurateArrivals: arrivals)
        idle.insert(device, id: id)
    }

    /// Puts the device `id` back into every stage if it was set aside;
    /// returns whether it was.
    @discardableResult
    private mutating func restore(_ id: DeviceID) -> Bool {
        guard idle.count > 0, let device = idle.remove(id) else { return false }
        if let state = device.buffer { buffer.restore(state, device: id) }
        evaluation.restore(device, id: id)
        return true
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

extension [DeviceID] {
    /// The devices sorted by name. Sorted with each name beside its ID, in
    /// a struct rather than a tuple, so that sorting 100 000 of them reads
    /// no name's entry and copies no element through a tuple's generic
    /// witnesses.
    func byName() -> [DeviceID] {
        map { NamedDevice(name: $0.name, id: $0) }.sorted { $0.name < $1.name }.map(\.id)
    }
}

/// A device and its name, for `byName()`.
private struct NamedDevice {
    let name: String
    let id: DeviceID
}
