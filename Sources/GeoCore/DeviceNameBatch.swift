/// Device names gathered from many records, to be interned together
/// (``intern()``): what a decoder does with a chunk's names when
/// consecutive records name different devices.
///
/// With 100 000 devices taking turns, interning names one by one cost a
/// cache miss each in the registry's table, about 100 ns, which a whole
/// batch's lookups overlap; the batch also takes the registry's lock once
/// and makes a `String` only for a name the process has not seen. A name
/// of up to 16 bytes (most device names) is kept as two words
/// (``ShortName``), which the registry hashes and compares as they are.
public struct DeviceNameBatch: Sendable {
    /// The names gathered, in order.
    private var names: [BatchedName] = []
    /// The UTF-8 of the names longer than a ``ShortName``, end to end.
    private var longBytes: [UInt8] = []
    /// The registry's number of the last name interned, where the next
    /// batch's lookups start (see ``DeviceNameRegistry``).
    private var lastNumber: UInt32?

    /// No names.
    public init() {}

    /// The number of names gathered.
    public var count: Int { names.count }

    /// Adds the name whose UTF-8 is `utf8`, which must be valid UTF-8
    /// (ASCII, or the bytes of a `String`).
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        let bytes = UnsafeRawBufferPointer(utf8)
        if let short = ShortName(bytes) { return names.append(.short(short)) }
        let start = longBytes.count
        longBytes.append(contentsOf: utf8)
        names.append(.long(start..<longBytes.count))
    }

    /// What ``appendIfPlain(utf8:unlessLast:)`` did.
    public enum PlainAppend: Sendable {
        /// The name is the last one added, which was asked about: nothing added.
        case sameAsLast
        /// The name was added.
        case appended
        /// The name is not plain: nothing added.
        case notPlain
    }

    /// Adds the name whose bytes are `utf8` if they are ASCII without `"`
    /// (a name a decoder takes as it is), unless `unlessLast` and the last
    /// name added is that name. A record's name is packed once for both
    /// questions: with devices taking turns, each name is a new one, and
    /// ``lastName(is:)`` then an append packed it twice.
    public mutating func appendIfPlain(utf8: UnsafeBufferPointer<UInt8>, unlessLast: Bool) -> PlainAppend {
        let bytes = UnsafeRawBufferPointer(utf8)
        if let short = ShortName(bytes) {
            if unlessLast, case .short(let last) = names.last, last == short { return .sameAsLast }
            guard short.isASCIIWithoutQuotes else { return .notPlain }
            names.append(.short(short))
            return .appended
        }
        if unlessLast, lastName(is: utf8) { return .sameAsLast }
        guard ByteWords.isASCIIWithoutQuotes(bytes) else { return .notPlain }
        append(utf8: utf8)
        return .appended
    }

    /// Adds `name`.
    public mutating func append(_ name: String) {
        var name = name
        name.withUTF8 { append(utf8: $0) }
    }

    /// Whether the last name added is the one whose UTF-8 is `utf8`.
    public func lastName(is utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        switch names.last {
        case nil: return false
        case .short(let short): return ShortName(UnsafeRawBufferPointer(utf8)) == short
        case .long(let range):
            return longBytes.withUnsafeBytes {
                ByteWords.equal(UnsafeRawBufferPointer(rebasing: $0[range]), UnsafeRawBufferPointer(utf8))
            }
        }
    }

    /// The UTF-8 of the last name added (empty if none).
    public var lastNameUTF8: [UInt8] {
        switch names.last {
        case nil: return []
        case .short(let short): return short.bytes
        case .long(let range): return Array(longBytes[range])
        }
    }

    /// Interns every name gathered and empties the batch: the IDs in
    /// order of appending. New names are recorded in that order.
    public mutating func intern() -> [DeviceID] {
        guard !names.isEmpty else { return [] }
        let ids = longBytes.withUnsafeBytes { DeviceNameRegistry.intern(names, longBytes: $0, after: &lastNumber) }
        names.removeAll(keepingCapacity: true)
        longBytes.removeAll(keepingCapacity: true)
        return ids
    }
}

/// A name of a ``DeviceNameBatch``: its bytes as a ``ShortName``, or where
/// they lie among the batch's long names.
enum BatchedName: Sendable {
    case short(ShortName)
    case long(Range<Int>)
}
