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
    /// The name's place in the order the process met names, from 0: dense,
    /// so a per-device table finds a device's slot by indexing an array
    /// with it, without hashing or reading the entry (with 100 000
    /// devices, each of those reads was a cache miss).
    @usableFromInline let number: UInt32

    /// The ID of `name`, recorded on first sight.
    public init(_ name: String) { self = DeviceNameRegistry.intern(name) }

    /// The ID of the name `entry` holds, whose number is `number`.
    init(entry: Unmanaged<DeviceNameEntry>, number: UInt32) {
        self.entry = entry
        self.number = number
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
    let stableHash: UInt64

    /// The entry of `name`, whose UTF-8 is `utf8`.
    init(name: String, utf8: UnsafeRawBufferPointer) {
        self.name = name
        stableHash = DeviceID.stableHash(of: utf8)
    }
}
