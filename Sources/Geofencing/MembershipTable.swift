/// One device's memberships by region key: a map kept as two arrays sorted
/// by key.
///
/// A device is inside a handful of regions at a time, so a binary search
/// over a few keys beats hashing, and nothing is allocated per lookup.
/// Inserting or removing shifts the arrays (only on entries and exits).
/// Iterates in ascending key order.
struct MembershipTable: Sequence, Sendable {
    private var keys: [Int] = []
    private var values: [Membership] = []

    /// The number of regions with a membership.
    var count: Int { keys.count }

    /// The membership of the region under `key`; setting `nil` removes it.
    subscript(key: Int) -> Membership? {
        get {
            let index = position(of: key)
            return index < keys.count && keys[index] == key ? values[index] : nil
        }
        set {
            let index = position(of: key)
            let present = index < keys.count && keys[index] == key
            switch (newValue, present) {
            case (let value?, true): values[index] = value
            case (let value?, false):
                keys.insert(key, at: index)
                values.insert(value, at: index)
            case (nil, true):
                keys.remove(at: index)
                values.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// The first position whose key is not below `key`.
    private func position(of key: Int) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func makeIterator() -> Zip2Sequence<[Int], [Membership]>.Iterator { zip(keys, values).makeIterator() }
}
