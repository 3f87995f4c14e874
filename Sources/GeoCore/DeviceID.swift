import Synchronization

/// A device's name, interned for the process: two words that a ``Fix``
/// carries without reference counting, and that per-device tables compare
/// and hash without reading the name.
///
/// Each distinct name is stored once, the first time any thread meets it,
/// and kept for the life of the process: feeds name few devices, and a
/// fleet's 100 000 names take about 10 MB. Two IDs are equal exactly when
/// their names are. With a `String` in it, every copy of a fix went
/// through `Fix`'s value witness (retain, release) five times between the
/// decoder and the output, about 6 % of a replay (callgrind, 1M fixes).
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let entry: Unmanaged<DeviceNameEntry>
    /// The upper half of the name's keyed hash, carried along so that a
    /// table lookup does not read the entry (with 100 000 devices, a
    /// cache miss per lookup).
    @usableFromInline let tag: UInt32

    /// The ID of `name`, recorded on first sight.
    public init(_ name: String) { self = DeviceNameRegistry.intern(name) }

    init(entry: DeviceNameEntry) {
        self.entry = .passUnretained(entry)
        tag = UInt32(truncatingIfNeeded: entry.hash >> 32)
    }

    /// The device's name.
    @inlinable public var name: String { entry._withUnsafeGuaranteedRef { $0.name } }

    /// The device's name.
    public var description: String { name }

    /// The ID of the empty name, which stands for a feed's single unnamed device in per-device tables.
    public static let unnamed = DeviceID("")

    /// FNV-1a (64 bits) of the name's UTF-8: the same in every process,
    /// unlike `hashValue`; what `--shard` splits devices by.
    public var stableHash: UInt64 { entry._withUnsafeGuaranteedRef { $0.stableHash } }

    @inlinable public static func == (a: DeviceID, b: DeviceID) -> Bool { a.entry.toOpaque() == b.entry.toOpaque() }

    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(entry.toOpaque()) }

    /// FNV-1a (64 bits) of `bytes`.
    static func stableHash<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// One interned name; never freed.
@usableFromInline
final class DeviceNameEntry: Sendable {
    @usableFromInline let name: String
    /// A keyed hash of the name (the key drawn once per process, so a feed
    /// cannot line its names up on one table entry without knowing it).
    let hash: UInt64
    let stableHash: UInt64

    init(name: String, hash: UInt64) {
        self.name = name
        self.hash = hash
        stableHash = DeviceID.stableHash(of: name.utf8)
    }
}

/// Every name interned so far: an open-addressing table of the names'
/// keyed hashes, behind a lock (decoders intern on their own threads).
enum DeviceNameRegistry {
    private static let table = Mutex(Table())
    private static let seed = UInt64.random(in: .min ... .max)

    /// The ID of `name`.
    static func intern(_ name: String) -> DeviceID {
        var name = name
        let hash = name.withUTF8 { NameHash.hash(UnsafeRawBufferPointer($0), seed: seed) }
        return table.withLock { $0.intern(name, hash: hash) }
    }

    private struct Table: ~Copyable {
        /// Tag << 32 | index + 1 per entry; 0 where empty. A power of two long.
        var positions = [UInt64](repeating: 0, count: 64)
        /// The names, each holding its entry for good.
        var entries: [DeviceNameEntry] = []

        mutating func intern(_ name: String, hash: UInt64) -> DeviceID {
            let tag = hash >> 32
            let mask = positions.count - 1
            var position = Int(truncatingIfNeeded: tag) & mask
            while positions[position] != 0 {
                let packed = positions[position]
                if packed >> 32 == tag {
                    let entry = entries[Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) - 1]
                    if entry.name == name { return DeviceID(entry: entry) }
                }
                position = (position + 1) & mask
            }
            let entry = DeviceNameEntry(name: name, hash: hash)
            entries.append(entry)
            positions[position] = tag << 32 | UInt64(entries.count)
            if 2 * entries.count > positions.count { grow() }
            return DeviceID(entry: entry)
        }

        private mutating func grow() {
            let old = positions
            positions = Array(repeating: 0, count: 2 * old.count)
            let mask = positions.count - 1
            for entry in old where entry != 0 {
                var position = Int(truncatingIfNeeded: entry >> 32) & mask
                while positions[position] != 0 { position = (position + 1) & mask }
                positions[position] = entry
            }
        }
    }
}
