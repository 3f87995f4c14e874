/// Device IDs to small slot numbers: an open-addressing hash table with
/// linear probing, the index of ``DeviceTable``.
///
/// Each entry is one word: the ID's tag (the upper 32 bits of the name's
/// keyed hash, computed once, when the name was interned) over its
/// slot + 1, and 0 where empty. A probe compares IDs, a pointer each,
/// only when the tags match. A removed ID's followers are shifted back
/// into its place, so there are no tombstones and lookups stay short
/// however many devices come and go. The table is kept at most half full.
@usableFromInline
struct DeviceNameIndex: Sendable {
    /// Tag << 32 | slot + 1 per entry; 0 where empty. A power of two long.
    private var entries: [UInt64] = Array(repeating: 0, count: 16)
    private var used = 0

    @usableFromInline init() {}

    /// The slot of `id`, where `ids` holds each slot's ID.
    @usableFromInline func slot(of id: DeviceID, ids: [DeviceID?]) -> Int? {
        position(of: id, ids: ids).map { Self.slot(in: entries[$0]) }
    }

    /// Where `id`'s entry is, or `nil`.
    private func position(of id: DeviceID, ids: [DeviceID?]) -> Int? {
        let tag = id.tag
        let mask = entries.count - 1
        var position = Int(tag) & mask
        while true {
            let entry = entries[position]
            if entry == 0 { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == tag, ids[Self.slot(in: entry)] == id { return position }
            position = (position + 1) & mask
        }
    }

    /// Records `id` (not present yet) in `slot`.
    @usableFromInline mutating func insert(_ id: DeviceID, slot: Int) {
        if 2 * (used + 1) > entries.count { grow() }
        place(UInt64(id.tag) << 32 | UInt64(slot + 1))
        used += 1
    }

    /// Forgets `id`, returning the slot it had (`nil` if absent).
    @usableFromInline mutating func remove(_ id: DeviceID, ids: [DeviceID?]) -> Int? {
        guard var hole = position(of: id, ids: ids) else { return nil }
        let slot = Self.slot(in: entries[hole])
        let mask = entries.count - 1
        // Backward shift: an entry after the hole moves into it unless its
        // home lies after the hole (then it is already as near as it gets).
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = entries[next]
            if entry == 0 { break }
            let home = Int(entry >> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                entries[hole] = entry
                hole = next
            }
        }
        entries[hole] = 0
        used -= 1
        return slot
    }

    /// The slot an occupied entry points at.
    @inline(__always)
    private static func slot(in entry: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: entry)) - 1 }

    private mutating func place(_ entry: UInt64) {
        let mask = entries.count - 1
        var position = Int(entry >> 32) & mask
        while entries[position] != 0 { position = (position + 1) & mask }
        entries[position] = entry
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: 0, count: 2 * old.count)
        for entry in old where entry != 0 { place(entry) }
    }
}
