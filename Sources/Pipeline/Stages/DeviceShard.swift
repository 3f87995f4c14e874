import GeoCore

/// Which of `count` shards a device belongs to: the FNV-1a hash of its
/// name's UTF-8 bytes (`""` for fixes without a device) modulo `count`.
///
/// Fixed for every run and machine, so that `--jobs` threads and
/// `--shard I/N` processes on different machines split the devices alike.
public struct DeviceShard: Sendable {
    /// The number of shards.
    public let count: Int
    private var last: (id: DeviceID, shard: Int)?
    /// Each device's shard + 1 by its ``DeviceID/number`` (0: not worked
    /// out yet), when there are fewer than 65 535 shards: the hash lives
    /// in the name's entry, a cache miss per fix with 100 000 devices
    /// taking turns, where this is 2 bytes a device.
    private var shardsByNumber: [UInt16] = []

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
        let id = id ?? .unnamed
        if let last, last.id == id { return last.shard }
        let shard: Int
        let number = Int(id.number)
        if number < shardsByNumber.count, shardsByNumber[number] != 0 {
            shard = Int(shardsByNumber[number]) - 1
        } else {
            shard = Int(id.stableHash % UInt64(count))
            if count < Int(UInt16.max) {
                if number >= shardsByNumber.count {
                    shardsByNumber += repeatElement(0, count: max(number + 1, 2 * shardsByNumber.count) - shardsByNumber.count)
                }
                shardsByNumber[number] = UInt16(shard + 1)
            }
        }
        last = (id, shard)
        return shard
    }

    /// Appends the shard of each fix of `fixes` to `shards`.
    mutating func appendShards(of fixes: ArraySlice<Fix>, to shards: inout [UInt8]) {
        fixes.withUnsafeBufferPointer { fixes in
            for fix in fixes { shards.append(UInt8(shard(of: fix.deviceID))) }
        }
    }
}
