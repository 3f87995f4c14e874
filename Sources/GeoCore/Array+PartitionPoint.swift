extension Array {
    /// The first index whose element satisfies `isAtOrPast`, which must be
    /// false for a first part of the array and true for the rest (as
    /// `{ $0 >= value }` is on sorted values); `count` when none does. A
    /// binary search.
    @inlinable
    package func partitionPoint(where isAtOrPast: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
