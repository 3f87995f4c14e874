/// The position that each of a list's distinct names was first recorded
/// at (a task's id and its place among the tasks): a `[String: Int]` that
/// only grows, found through ``NameHash``'s keyed hash of the name's bytes.
/// Names are told apart as `String` tells them (canonical equivalence).
///
/// Made for 100 000 task ids read at a run's start. Through a `Dictionary`
/// and `String`'s SipHash, recording an id took about 420 instructions;
/// here about 310, in half the time, as a probe reads one 8-byte slot.
public struct NamePositions: Sendable {
    /// The hash's key, drawn once per process, so that a file cannot line
    /// its names up on one slot without knowing it.
    private static let seed = UInt64.random(in: .min ... .max)

    private var slots: HashSlots
    /// The names recorded, in order, each with its position (one array,
    /// so that a value holding this table stays small).
    public private(set) var entries: [(name: String, position: Int)] = []

    /// An empty table with room for `capacity` names before it grows.
    public init(capacity: Int = 0) {
        slots = HashSlots(capacity: capacity)
        entries.reserveCapacity(capacity)
    }

    /// The number of names recorded.
    public var count: Int { entries.count }

    /// The position recorded for `name`; `nil` if it has none.
    public subscript(name: String) -> Int? {
        entry(of: name, hash: Self.hash(of: name)).map { entries[$0].position }
    }

    /// Records `position` for `name`, unless `name` has one already.
    /// - Returns: the position `name` had before (and keeps); `nil` when it
    ///   had none and now has `position`.
    @discardableResult
    public mutating func recordFirst(_ name: String, at position: Int) -> Int? {
        let hash = Self.hash(of: name)
        if let earlier = entry(of: name, hash: hash) { return entries[earlier].position }
        entries.append((name, position))
        slots.insert(entries.count - 1, hash: hash, count: entries.count)
        return nil
    }

    /// Records `count` names, the name at each offset as `name` gives it,
    /// at positions counted on from `first`, in order, as
    /// ``recordFirst(_:at:)`` does one by one, and stops at the first name
    /// that has a position already.
    ///
    /// The names go in blocks whose first probes are all read before any is
    /// compared: with 100 000 names each probe is a cache miss, and read
    /// together the misses overlap.
    ///
    /// - Returns: that name's offset and the position it keeps; `nil` when
    ///   every name was recorded.
    public mutating func recordFirst(
        _ count: Int, from first: Int, names name: (_ offset: Int) -> String
    ) -> (offset: Int, earlier: Int)? {
        let block = 32
        var hashes = [UInt64](repeating: 0, count: block)
        var firstWords = [UInt64](repeating: 0, count: block)
        for start in stride(from: 0, to: count, by: block) {
            let offsets = start..<min(start + block, count)
            for offset in offsets { hashes[offset - start] = Self.hash(of: name(offset)) }
            // The loads in a loop of their own, so that their misses overlap.
            for slot in 0..<offsets.count { firstWords[slot] = slots.words[slots.home(of: hashes[slot])] }
            // A first word read before an insert may be out of date.
            var inserted = false
            for offset in offsets {
                let (hash, name) = (hashes[offset - start], name(offset))
                let firstWord = inserted ? nil : firstWords[offset - start]
                if let earlier = slots.find(hash: hash, firstWord: firstWord, where: { entries[$0].name == name }) {
                    return (offset, entries[earlier].position)
                }
                entries.append((name, first + offset))
                slots.insert(entries.count - 1, hash: hash, count: entries.count)
                inserted = true
            }
        }
        return nil
    }

    /// The number of `name`'s entry, found by its `hash`.
    private func entry(of name: String, hash: UInt64) -> Int? {
        slots.find(hash: hash) { entries[$0].name == name }
    }

    /// The keyed hash of the bytes that stand for `name`.
    private static func hash(of name: String) -> UInt64 {
        withBytes(of: name) { NameHash.hash($0, seed: seed) }
    }

    /// `body` of the bytes that stand for `name`: its UTF-8 when that is
    /// ASCII, else that of its canonical composition (NFC), so that names
    /// Swift holds equal hash alike: "é" as one scalar or as two, or the
    /// Kelvin sign and "K".
    @inline(__always)
    private static func withBytes<Result>(of name: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var utf8 = name
        let ascii = utf8.withUTF8 { bytes in
            ByteWords.isASCII(UnsafeRawBufferPointer(bytes)) ? body(UnsafeRawBufferPointer(bytes)) : nil
        }
        if let ascii { return ascii }
        // The form `String`'s own hashing and comparison use.
        return name._nfcCodeUnits.withUnsafeBytes(body)
    }
}
