/// Counts a decoder keeps besides fixes and diagnostics: records it read
/// and deliberately did not turn into fixes (GSV, route points, comments…).
public struct FeedStatistics: Hashable, Sendable {
    /// Records ignored on purpose, by kind (`"GSV"`, `"unknown sentence"`, `"rtept"`, `"comment"`…).
    public var ignored: [String: Int] = [:]

    /// Creates empty statistics.
    public init() {}

    /// Counts one more ignored record of a kind.
    @inline(__always)
    public mutating func ignore(_ kind: String, count: Int = 1) {
        ignored[kind, default: 0] += count
    }
}
