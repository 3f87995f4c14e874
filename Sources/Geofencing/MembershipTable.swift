/// One device's memberships by region key: a map kept as one array sorted
/// by key.
///
/// A device is inside a handful of regions at a time, so a binary search
/// over a few keys beats hashing, and nothing is allocated per lookup.
/// Inserting or removing shifts the array (only on entries and exits); an
/// emptied table lets its storage go. Iterates in ascending key order.
struct MembershipTable: Sequence, Sendable {
    private var entries: [(key: Int, membership: Membership)] = []

    /// An empty table.
    init() {}

    /// The number of regions with a membership.
    var count: Int { entries.count }

    /// The membership of the region under `key`; setting `nil` removes it.
    subscript(key: Int) -> Membership? {
        get {
            let index = position(of: key)
            return index < entries.count && entries[index].key == key ? entries[index].membership : nil
        }
        set {
            let index = position(of: key)
            let present = index < entries.count && entries[index].key == key
            switch (newValue, present) {
            case (let value?, true): entries[index].membership = value
            case (let value?, false): entries.insert((key, value), at: index)
            case (nil, true):
                if entries.count == 1 { entries = [] } else { entries.remove(at: index) }
            case (nil, false): break
            }
        }
    }

    /// Calls `change` with each of `keys` (ascending, each once) and its
    /// membership (`nil`: none), and gives the key the membership it
    /// returns (`nil` removes it): in one walk of the keys and the table
    /// together, rather than a search of the table for each key.
    mutating func update(ascending keys: [Int], _ change: (_ key: Int, _ membership: Membership?) -> Membership?) {
        var position = 0
        for key in keys {
            while position < entries.count, entries[position].key < key { position += 1 }
            let present = position < entries.count && entries[position].key == key
            switch (change(key, present ? entries[position].membership : nil), present) {
            case (let value?, true):
                entries[position].membership = value
                position += 1
            case (let value?, false):
                entries.insert((key, value), at: position)
                position += 1
            case (nil, true): entries.remove(at: position)
            case (nil, false): break
            }
        }
        if entries.isEmpty { entries = [] }
    }

    /// The first position whose key is not below `key`: the keys below it
    /// counted without a branch for the few a device is usually inside
    /// (a binary search's branches mispredict on half its steps), a
    /// binary search beyond that.
    private func position(of key: Int) -> Int {
        entries.withUnsafeBufferPointer { entries in
            guard entries.count > 16 else {
                var below = 0
                for entry in entries { below &+= entry.key < key ? 1 : 0 }
                return below
            }
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].key < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    func makeIterator() -> IndexingIterator<[(key: Int, membership: Membership)]> { entries.makeIterator() }
}
