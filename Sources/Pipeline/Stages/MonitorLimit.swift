import GeoCore

/// A platform's limit on monitored regions (iOS: 20 per app) as a state
/// machine, for evaluating what it costs.
///
/// Each device monitors the `limit` regions nearest to the place where its
/// set was last chosen. The set is chosen again when the device has moved
/// farther from that place than half the distance to the fence of the
/// nearest region left out (at least ``minimumRefreshDistance``) — the
/// "refresh region" technique of iOS apps, with a margin. Until then no
/// unmonitored region can contain the device, so entries are missed only
/// when a device jumps far between two fixes (sparse sampling, fast
/// travel): the entry or cross falls on a fix evaluated with the old set,
/// and a region already around the device when it becomes monitored
/// reports no entry (as on iOS).
///
/// Pure: the caller supplies the nearest-region query and the positions.
public struct MonitorLimit: Sendable {
    /// How many regions a device monitors.
    public let limit: Int
    /// The smallest refresh distance, in metres, so that a device in a
    /// crowd of overlapping regions does not choose on every fix.
    public static let minimumRefreshDistance = 10.0
    /// How many times a set was chosen, over all devices.
    public private(set) var refreshes = 0
    private var devices: [String: MonitoredSet] = [:]

    /// A limit of `limit` regions per device (≥ 1).
    public init(limit: Int) {
        precondition(limit >= 1, "a monitor limit is at least 1")
        self.limit = limit
    }

    /// Whether `device` has chosen a set yet.
    public func hasSet(for device: String?) -> Bool { devices[device ?? ""] != nil }

    /// Whether `device` monitors the region under `key`.
    public func isMonitored(_ key: Int, device: String?) -> Bool {
        devices[device ?? ""]?.contains(key) ?? false
    }

    /// Takes `device`'s set out (`""` for fixes without a device); `nil`
    /// if it has none.
    mutating func remove(device: String) -> MonitoredSet? { devices.removeValue(forKey: device) }

    /// Puts back what ``remove(device:)`` took.
    mutating func restore(_ set: MonitoredSet, device: String) { devices[device] = set }

    /// Chooses `device`'s set at `point` if it has none or has moved beyond
    /// its refresh distance. `nearest(point, n)` returns the n nearest
    /// regions with their distances, nearest first. Returns whether it chose.
    @discardableResult
    public mutating func observe(
        _ point: Coordinate, device: String?, nearest: (Coordinate, Int) -> [(key: Int, distance: Double)]
    ) -> Bool {
        let name = device ?? ""
        if let current = devices[name], Geodesy.distance(current.centre, point) <= current.refreshDistance {
            return false
        }
        // One more than the limit: the first region left out bounds how far
        // the device may move before an unmonitored one can contain it
        // (none is left out of a limit of Int.max).
        let found = nearest(point, limit == .max ? limit : limit + 1)
        let chosen = found.prefix(limit)
        let refreshDistance = found.count > limit ? found[limit].distance / 2 : .infinity
        devices[name] = MonitoredSet(
            centre: point, refreshDistance: max(refreshDistance, Self.minimumRefreshDistance),
            keys: chosen.map(\.key).sorted())
        refreshes += 1
        return true
    }
}

/// One device's monitored regions and where they were chosen.
struct MonitoredSet: Sendable {
    var centre: Coordinate
    var refreshDistance: Double
    /// The region keys, ascending.
    var keys: [Int]

    /// Whether the region under `key` is monitored (a binary search).
    func contains(_ key: Int) -> Bool {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key
    }

    /// Appends the set to `writer`.
    func pack(into writer: inout PackedWriter) {
        writer.write(centre)
        writer.write(refreshDistance)
        writer.write(count: keys.count)
        for key in keys { writer.write(count: key) }
    }
}

extension MonitoredSet {
    /// Reads a set that ``pack(into:)`` wrote.
    init(unpacking reader: inout PackedReader) {
        let centre = reader.readCoordinate()
        let refreshDistance = reader.readDouble()
        let keys = (0..<reader.readCount()).map { _ in reader.readCount() }
        self.init(centre: centre, refreshDistance: refreshDistance, keys: keys)
    }
}
