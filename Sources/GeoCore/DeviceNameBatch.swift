/// Device names gathered from many records, to be interned together
/// (``intern()``): what a decoder does with a chunk's names when
/// consecutive records name different devices.
///
/// With 100 000 devices taking turns, interning names one by one cost a
/// cache miss each in the registry's table, about 100 ns, which a whole
/// batch's lookups overlap; the batch also takes the registry's lock once
/// and makes a `String` only for a name the process has not seen.
public struct DeviceNameBatch: Sendable {
    /// The names' UTF-8, end to end.
    private var bytes: [UInt8] = []
    /// Where each name ends in `bytes`.
    private var ends: [Int] = []

    /// No names.
    public init() {}

    /// The number of names gathered.
    public var count: Int { ends.count }

    /// Adds the name whose UTF-8 is `utf8`, which must be valid UTF-8
    /// (ASCII, or the bytes of a `String`).
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
    }

    /// Adds `name`.
    public mutating func append(_ name: String) {
        bytes.append(contentsOf: name.utf8)
        ends.append(bytes.count)
    }

    /// Whether the last name added is the one whose UTF-8 is `utf8`.
    public func lastName(is utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let end = ends.last else { return false }
        let start = ends.count > 1 ? ends[ends.count - 2] : 0
        return bytes.withUnsafeBytes {
            ByteWords.equal(UnsafeRawBufferPointer(rebasing: $0[start..<end]), UnsafeRawBufferPointer(utf8))
        }
    }

    /// The UTF-8 of the last name added (empty if none).
    public var lastNameUTF8: [UInt8] {
        guard let end = ends.last else { return [] }
        return Array(bytes[(ends.count > 1 ? ends[ends.count - 2] : 0)..<end])
    }

    /// Interns every name gathered and empties the batch: the IDs in
    /// order of appending. New names are recorded in that order.
    public mutating func intern() -> [DeviceID] {
        guard !ends.isEmpty else { return [] }
        let ids = bytes.withUnsafeBytes { DeviceNameRegistry.intern($0, ends: ends) }
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        return ids
    }
}
