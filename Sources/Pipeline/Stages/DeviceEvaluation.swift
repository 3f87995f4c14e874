import GeoCore
import Geofencing

/// The per-device stages after the reorder buffer: the fix filter and
/// geofence detector, then the platform monitor limit, for the fixes the
/// buffer releases (see ``DeviceStages``).
struct DeviceEvaluation: Sendable {
    private(set) var detector: TransitionDetector
    private(set) var monitor: MonitorLimit?
    /// The regions that take a place in a monitored set.
    private let reminding: RemindingRegions
    private var transitions: [Transition] = []
    /// (device, region) pairs whose inaccurate arrival was already reported
    /// since the device's last accepted fix.
    private var inaccurateArrivals: Set<DeviceRegion> = []
    /// Whether the outputs keep each released fix, not only its time
    /// (see ``DeviceOutputs/appendReleased(_:transitions:inaccurateKeys:keepingFix:)``).
    var keepsReleasedFixes = true

    /// The stages over `regions` (padded by `padding` metres for detection).
    init(regions: RegionTable, reminding: RemindingRegions, geofence: GeofenceSettings, monitorLimit: Int?, padding: Double) {
        detector = TransitionDetector(regions: regions.padded(by: padding), settings: geofence)
        monitor = monitorLimit.map(MonitorLimit.init(limit:))
        self.reminding = reminding
    }

    /// The stages of no device yet, with the same regions and settings (the
    /// regions and their index are shared, not copied).
    func emptied() -> DeviceEvaluation {
        emptied(geofence: detector.settings, monitorLimit: monitor?.limit)
    }

    /// The stages of no device yet over the same regions and index, with
    /// other settings.
    func emptied(geofence: GeofenceSettings, monitorLimit: Int?) -> DeviceEvaluation {
        var evaluation = self
        evaluation.detector = detector.emptied(settings: geofence)
        evaluation.monitor = monitorLimit.map(MonitorLimit.init(limit:))
        evaluation.inaccurateArrivals = []
        return evaluation
    }

    /// Records what the reorder buffer handed on in `outputs`: a late fix,
    /// or a released one with what it makes.
    mutating func handle(_ output: ReorderBuffer.Output, into outputs: inout DeviceOutputs) {
        switch output {
        case .late(let fix):
            outputs.appendLate(fix)
        case .fix(let fix):
            evaluate(fix, into: &outputs)
        }
    }

    /// Takes the device `id` out: its detector and monitor state and its
    /// reported inaccurate arrivals (an idle device, set aside).
    mutating func remove(device id: DeviceID) -> (DeviceState?, MonitoredSet?, [DeviceRegion]) {
        let name = id.name
        let arrivals = inaccurateArrivals.filter { ($0.device ?? "") == name }
        inaccurateArrivals.subtract(arrivals)
        return (detector.remove(device: id), monitor?.remove(device: name), Array(arrivals))
    }

    /// Puts back what ``remove(device:)`` took of the device `id`.
    mutating func restore(_ device: IdleDevice, id: DeviceID) {
        if let state = device.detector { detector.restore(state, device: id) }
        if let set = device.monitor { monitor?.restore(set, device: id.name) }
        inaccurateArrivals.formUnion(device.inaccurateArrivals)
    }

    private mutating func evaluate(_ fix: TimedFix, into outputs: inout DeviceOutputs) {
        // The device's name only where it is read: by the monitor limit,
        // and for inaccurate arrivals. Reading it is a retain and a release
        // a fix, and with 100 000 devices a cache miss on the name's entry.
        let device = monitor == nil ? nil : fix.device
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
            if !inaccurateArrivals.isEmpty {
                let device = fix.device
                inaccurateArrivals = inaccurateArrivals.filter { $0.device != device }
            }
            refreshMonitor(at: fix.coordinate, device: device)
        case .ignored(.inaccurate):
            let device = fix.device
            let keys = detector.regionsUnentered(at: fix.fix).filter {
                inaccurateArrivals.insert(DeviceRegion(device: device, region: $0)).inserted
            }
            outputs.inaccurateKeys += keys
            inaccurateKeys = keys.count
        case .ignored(.invalid), .ignored(.outOfOrder):
            break
        }
        outputs.appendReleased(
            fix, transitions: transitions.count, inaccurateKeys: inaccurateKeys, keepingFix: keepsReleasedFixes)
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
