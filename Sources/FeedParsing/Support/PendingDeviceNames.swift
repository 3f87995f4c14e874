import GeoCore

/// The device names of the records a decoder reads, interned together
/// (``DeviceNameBatch``) every 256 records and at the end of each chunk,
/// for a feed whose consecutive records name different devices.
///
/// A record that names the same device as the record before, in the same
/// bytes, takes that record's ID (or its place in the batch) without its
/// name being gathered again: a feed usually carries one device. Only
/// plain names are compared so (ASCII without quotes, which are their own
/// UTF-8); any other name is made by the decoder and gathered each time.
struct PendingDeviceNames {
    private var names = DeviceNameBatch()
    /// The records waiting for an ID: each one's index in the batch's
    /// fixes, and its name's index in `names`.
    private var waiting: [(fix: Int, name: Int)] = []
    /// Whether the last name read is plain and waits at the end of `names`.
    private var lastWaits = false
    /// The last name read, if plain and interned: its ID and UTF-8.
    private var lastID: DeviceID?
    private var lastUTF8: [UInt8] = []

    /// Whether enough records wait for their IDs to intern their names
    /// now: 256, enough for the registry to overlap its lookups, and
    /// few enough that the fixes are still in cache when they get their
    /// IDs (a whole chunk's, 22 000 fixes of 1 MiB of CSV, were not).
    var isFull: Bool { waiting.count >= 256 }

    /// The ID of the device that the bytes `field` name, when already
    /// known; otherwise `nil`, and the fix at `fix` in the batch gets it
    /// from ``resolve(_:)``. `name` makes the name when the bytes are not
    /// plain.
    mutating func id(of field: UnsafeBufferPointer<UInt8>, forFix fix: Int, name: () -> String) -> DeviceID? {
        if let lastID, Self.equal(lastUTF8, field) { return lastID }
        switch names.appendIfPlain(utf8: field, unlessLast: lastWaits) {
        case .sameAsLast:
            break
        case .appended:
            lastID = nil
            lastWaits = true
        case .notPlain:
            lastID = nil
            lastWaits = false
            names.append(name())
        }
        waiting.append((fix, names.count - 1))
        return nil
    }

    /// Interns the names gathered and gives each waiting fix of `fixes` its ID.
    mutating func resolve(_ fixes: inout [Fix]) {
        guard let (_, lastName) = waiting.last else { return }
        if lastWaits { lastUTF8 = names.lastNameUTF8 }
        let ids = names.intern()
        for (fix, name) in waiting { fixes[fix].deviceID = ids[name] }
        if lastWaits { lastID = ids[lastName] }
        lastWaits = false
        waiting.removeAll(keepingCapacity: true)
    }

    private static func equal(_ stored: [UInt8], _ field: UnsafeBufferPointer<UInt8>) -> Bool {
        stored.withUnsafeBytes { ByteWords.equal($0, UnsafeRawBufferPointer(field)) }
    }
}
