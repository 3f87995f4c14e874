/// Which of `count` shards a device belongs to: the FNV-1a hash of its
/// name's UTF-8 bytes (`""` for fixes without a device) modulo `count`.
///
/// Fixed for every run and machine, so that `--jobs` threads and
/// `--shard I/N` processes on different machines split the devices alike.
public struct DeviceShard: Sendable {
    /// The number of shards.
    public let count: Int
    private var last: (name: String, shard: Int)?

    /// Shards of `count` (at least 1).
    public init(count: Int) {
        precondition(count >= 1, "at least one shard")
        self.count = count
    }

    /// The shard of the device `name`, remembering the last answer (fixes
    /// of one device usually come together).
    public mutating func shard(of name: String?) -> Int {
        guard count > 1 else { return 0 }
        let name = name ?? ""
        if let last, last.name == name { return last.shard }
        let shard = Int(Self.hash(name) % UInt64(count))
        last = (name, shard)
        return shard
    }

    /// FNV-1a (64 bits) of `name`'s UTF-8 bytes.
    public static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
