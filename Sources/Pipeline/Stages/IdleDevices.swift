import GeoCore
import Geofencing

/// The devices a ``ReminderPipeline`` set aside after a silence on the
/// feed's clock (`--device-idle`), and when to look for more.
///
/// A device that sent nothing for the idle time is taken out of every
/// stage and kept here packed in bytes: what the stages need to carry
/// on exactly as if it had stayed — the newest time it sent and the fixes
/// the reorder window still holds, its last evaluated fix, the regions it
/// is inside or entering, its monitored set and the inaccurate arrivals
/// already reported. Its next fix puts it back first. Nothing here changes
/// what a run prints; it bounds the working set of a long run, or one with
/// many devices coming and going, to the devices that are active.
///
/// The feed's clock is the newest fix time pushed. Devices are looked for
/// every quarter of the idle time of that clock, so one is set aside
/// between 1 and 1.25 idle times after its last fix; each look costs one
/// pass over the active devices.
struct IdleDevices: Sendable {
    /// The silence, in nanoseconds of feed time, after which a device is
    /// set aside.
    let limit: Int64
    private var devices = DeviceTable<[UInt8]>(empty: [])
    /// The newest fix time pushed.
    private var clock = Int64.min
    private var nextLook = Int64.min
    /// How many of the devices set aside the detector had seen.
    private(set) var evaluatedCount = 0

    /// A store for devices silent for `seconds` of feed time (at least one
    /// nanosecond; clamped to Int64's 292 years).
    init(limitSeconds seconds: Double) {
        self.init(limitNanoseconds: Int64(min(max(1e-9, seconds) * 1e9, 9.2e18).rounded(.up)))
    }

    /// A store for devices silent for `limit` nanoseconds of feed time.
    init(limitNanoseconds limit: Int64) { self.limit = limit }

    /// The number of devices set aside.
    var count: Int { devices.count }

    /// The devices set aside.
    var ids: [DeviceID] { devices.ids { _ in true } }

    /// Moves the clock to `time` (nanoseconds) if it is newer; returns the
    /// time before which a device's newest fix makes it idle, when it is
    /// time to look for idle devices.
    mutating func look(at time: Int64) -> Int64? {
        clock = max(clock, time)
        guard clock >= nextLook else { return nil }
        let (next, overflow) = clock.addingReportingOverflow(limit / 4)
        nextLook = overflow ? .max : next
        let (cutoff, under) = clock.subtractingReportingOverflow(limit)
        return under ? .min : cutoff
    }

    /// Keeps `device`'s state under `id`, packed.
    mutating func insert(_ device: IdleDevice, id: DeviceID) {
        let slot = devices.slot(of: id).slot
        devices[slot] = device.packed()
        if device.detector != nil { evaluatedCount += 1 }
    }

    /// Takes the state kept under `id` out, if any.
    mutating func remove(_ id: DeviceID) -> IdleDevice? {
        guard let bytes = devices.remove(id) else { return nil }
        let device = IdleDevice(unpacking: bytes)
        if device.detector != nil { evaluatedCount -= 1 }
        return device
    }
}

/// One idle device's state in every stage.
struct IdleDevice: Sendable {
    /// Its newest time and the fixes the reorder window holds.
    var buffer: DeviceBuffer?
    /// Its last evaluated fix and memberships; `nil` if no fix reached the detector.
    var detector: DeviceState?
    /// Its monitored regions (`--monitor-limit`).
    var monitor: MonitoredSet?
    /// The inaccurate arrivals reported since its last accepted fix.
    var inaccurateArrivals: [DeviceRegion]

    /// The state in bytes: a byte saying which parts follow, then each.
    func packed() -> [UInt8] {
        var writer = PackedWriter()
        writer.write(UInt8((buffer == nil ? 0 : 1) | (detector == nil ? 0 : 2) | (monitor == nil ? 0 : 4)))
        buffer?.pack(into: &writer)
        detector?.pack(into: &writer)
        monitor?.pack(into: &writer)
        writer.write(count: inaccurateArrivals.count)
        for arrival in inaccurateArrivals {
            writer.write(UInt8(arrival.device == nil ? 0 : 1))
            if let device = arrival.device { writer.write(device) }
            writer.write(count: arrival.region)
        }
        return writer.packed
    }
}

extension IdleDevice {
    /// The state ``packed()`` wrote.
    init(unpacking bytes: [UInt8]) {
        var reader = PackedReader(bytes)
        let present = reader.readByte()
        buffer = present & 1 != 0 ? DeviceBuffer(unpacking: &reader) : nil
        detector = present & 2 != 0 ? DeviceState(unpacking: &reader) : nil
        monitor = present & 4 != 0 ? MonitoredSet(unpacking: &reader) : nil
        inaccurateArrivals = (0..<reader.readCount()).map { _ in
            let device = reader.readByte() == 0 ? nil : reader.readString()
            return DeviceRegion(device: device, region: reader.readCount())
        }
    }
}
