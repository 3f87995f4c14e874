/// Device names to small slot numbers: an open-addressing hash table with
/// linear probing, the index of ``DeviceTable``.
///
/// Each entry is one word, the name's 32-bit hash tag over its slot + 1
/// (0 is an empty entry), so a probe compares names only when their tags
/// match. The hash reads the name's UTF-8 sixteen bytes at a time through a
/// 64 × 64 → 128-bit multiply, keyed by a seed drawn per index, so a feed
/// cannot line its names up on one entry without knowing the seed. A lookup
/// of a short name costs about 210 instructions with the hash; through a
/// `Dictionary` and `String`'s SipHash it cost about 370, twice per fix
/// (callgrind, 100 000 devices). A removed name's followers are shifted back
/// into its place, so there are no tombstones and lookups stay short
/// however many devices come and go. The table is kept at most half full.
@usableFromInline
struct DeviceNameIndex: Sendable {
    /// Tag << 32 | slot + 1 per entry; 0 where empty. A power of two long.
    private var entries: [UInt64] = Array(repeating: 0, count: 16)
    private var used = 0
    private let seed = UInt64.random(in: .min ... .max)

    @usableFromInline init() {}

    /// The slot of `name`, where `names` holds each slot's name.
    @usableFromInline func slot(of name: String, names: [String?]) -> Int? {
        position(of: name, names: names).map { Self.slot(in: entries[$0]) }
    }

    /// Where `name`'s entry is, or `nil`.
    private func position(of name: String, names: [String?]) -> Int? {
        let tag = tag(of: name)
        let mask = entries.count - 1
        var position = Int(tag) & mask
        while true {
            let entry = entries[position]
            if entry == 0 { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == tag {
                if let candidate = names[Self.slot(in: entry)], candidate == name { return position }
            }
            position = (position + 1) & mask
        }
    }

    /// Records `name` (not present yet) in `slot`.
    @usableFromInline mutating func insert(_ name: String, slot: Int) {
        if 2 * (used + 1) > entries.count { grow() }
        place(UInt64(tag(of: name)) << 32 | UInt64(slot + 1))
        used += 1
    }

    /// Forgets `name`, returning the slot it had (`nil` if absent).
    @usableFromInline mutating func remove(_ name: String, names: [String?]) -> Int? {
        guard var hole = position(of: name, names: names) else { return nil }
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

    /// The upper half of the name's keyed hash.
    private func tag(of name: String) -> UInt32 {
        let hash =
            name.utf8.withContiguousStorageIfAvailable { Self.hash(UnsafeRawBufferPointer($0), seed: seed) }
            ?? Array(name.utf8).withUnsafeBytes { Self.hash($0, seed: seed) }
        return UInt32(truncatingIfNeeded: hash >> 32)
    }

    /// A keyed hash of `bytes`: each 16-byte block folded in with one
    /// full-width multiply, then the length. A short last block is read
    /// as overlapping words, without a loop over its bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var state = seed ^ 0xA076_1D64_78BD_642F
        var offset = 0
        let count = bytes.count
        while count - offset > 16 {
            state = mix(word(bytes, offset) ^ state, word(bytes, offset + 8) ^ seed ^ 0xE703_7ED1_A0B4_28DB)
            offset += 16
        }
        let rest = count - offset
        let low: UInt64
        let high: UInt64
        if rest > 8 {
            (low, high) = (word(bytes, offset), word(bytes, count - 8))
        } else if rest >= 4 {
            (low, high) = (UInt64(half(bytes, offset)) << 32 | UInt64(half(bytes, count - 4)), 0)
        } else if rest > 0 {
            let first = UInt64(bytes[offset]) << 16
            (low, high) = (first | UInt64(bytes[offset + rest / 2]) << 8 | UInt64(bytes[count - 1]), 0)
        } else {
            (low, high) = (0, 0)
        }
        state = mix(low ^ state, high ^ seed ^ 0xE703_7ED1_A0B4_28DB)
        return mix(state ^ UInt64(count), seed ^ 0x8EBC_6AF0_9C88_C6E3)
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func half(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Both halves of the 128-bit product, folded.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
