/// The slots of an open-addressing hash table whose entries its owner
/// keeps, numbered from 0 in the order added: each slot holds the upper
/// half of an entry's hash (its tag) above the entry's number + 1, 0 where
/// empty. Probes go on to the next slot; the slots double when half full.
///
/// Used by ``DeviceNameRegistry`` and ``NamePositions``, with
/// ``NameHash``'s keyed hashes.
struct HashSlots {
    /// A power of two long.
    private(set) var words: [UInt64]

    /// Room for `capacity` entries before the slots first double.
    init(capacity: Int = 32) {
        var count = 64
        while count < 2 * capacity { count *= 2 }
        words = Array(repeating: 0, count: count)
    }

    /// Where the probe for `hash` starts.
    @inline(__always)
    func home(of hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 32) & (words.count - 1) }

    /// The number of the first entry on `hash`'s probe whose tag is the
    /// hash's and for which `matches` holds; `nil` if none. `firstWord`
    /// is the slot at the probe's start, when the caller read it already.
    @inline(__always)
    func find(hash: UInt64, firstWord: UInt64? = nil, where matches: (Int) -> Bool) -> Int? {
        let tag = hash >> 32
        let mask = words.count - 1
        var position = home(of: hash)
        var packed = firstWord ?? words[position]
        while packed != 0 {
            if packed >> 32 == tag {
                let number = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) - 1
                if matches(number) { return number }
            }
            position = (position + 1) & mask
            packed = words[position]
        }
        return nil
    }

    /// Puts entry `number` (below 2³² − 1), which is not in the table yet,
    /// under `hash`; `count` is the number of entries with it.
    mutating func insert(_ number: Int, hash: UInt64, count: Int) {
        precondition(number < 0xFFFF_FFFF, "more than \(UInt32.max - 1) entries in one table")
        let mask = words.count - 1
        var position = home(of: hash)
        while words[position] != 0 { position = (position + 1) & mask }
        words[position] = (hash >> 32) << 32 | UInt64(number + 1)
        if 2 * count > words.count { grow() }
    }

    private mutating func grow() {
        let old = words
        words = Array(repeating: 0, count: 2 * old.count)
        let mask = words.count - 1
        for entry in old where entry != 0 {
            var position = Int(truncatingIfNeeded: entry >> 32) & mask
            while words[position] != 0 { position = (position + 1) & mask }
            words[position] = entry
        }
    }
}
