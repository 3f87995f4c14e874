import GeoCore

/// Which of `count` shards a device belongs to: the FNV-1a hash of its
/// name's UTF-8 bytes (`""` for fixes without a device) modulo `count`.
///
/// Fixed for every run and machine, so that `--shard I/N` processes on
/// different machines split the devices alike; `--jobs` threads split them
/// by the same hash (``WorkerRoute``).
public struct DeviceShard: Sendable {
    /// The number of shards.
    public let count: Int
    private var last: (id: DeviceID, shard: Int)?
    /// ``DeviceID/unnamed``, read once rather than through its lazy
    /// initializer's check at every fix.
    private let unnamed = DeviceID.unnamed

    /// Shards of `count` (at least 1).
    public init(count: Int) {
        precondition(count >= 1, "at least one shard")
        self.count = count
    }

    /// The shard of the device `name`.
    public mutating func shard(of name: String?) -> Int { shard(of: name.map(DeviceID.init)) }

    /// The shard of the device `id` (`nil`: the unnamed device, as the
    /// empty name), remembering the last answer (fixes of one device
    /// usually come together).
    public mutating func shard(of id: DeviceID?) -> Int {
        guard count > 1 else { return 0 }
        let id = id ?? unnamed
        if let last, last.id == id { return last.shard }
        let shard = Int(id.stableHash % UInt64(count))
        last = (id, shard)
        return shard
    }
}
