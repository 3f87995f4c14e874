import Geofencing

/// The tasks an arrival at each region concerns, by region key: the pairs
/// of the regions that have tasks, sorted by key (a run of millions of
/// regions without tasks holds nothing here).
public struct RegionTasks: Sendable {
    private var keys: [Int] = []
    private var ids: [String] = []

    /// No region has a task.
    public init() {}

    /// Adds `id` to the tasks of the region under `key`, which is not
    /// below any key added before.
    mutating func append(_ id: String, key: Int) {
        precondition(keys.last.map { $0 <= key } ?? true, "region tasks are added in key order")
        keys.append(key)
        ids.append(id)
    }

    /// Whether the region under `key` has a task.
    public func contains(key: Int) -> Bool {
        let index = RegionTable.firstIndex(in: keys, notBelow: key)
        return index < keys.count && keys[index] == key
    }

    /// The tasks of the region under `key`, in the order added.
    public subscript(key: Int) -> ArraySlice<String> {
        let start = RegionTable.firstIndex(in: keys, notBelow: key)
        var end = start
        while end < keys.count, keys[end] == key { end += 1 }
        return ids[start..<end]
    }
}
