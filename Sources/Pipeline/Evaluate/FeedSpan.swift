import GeoCore

/// The first and last time among a feed's fixes, in whatever order they
/// come: the time axis of a report's strips.
public struct FeedSpan: Sendable {
    private var first: Timestamp?
    private var last: Timestamp?

    /// No fix yet.
    public init() {}

    /// Takes a fix (one without a time changes nothing).
    public mutating func add(_ fix: Fix) {
        guard let time = fix.time else { return }
        if first.map({ time < $0 }) ?? true { first = time }
        if last.map({ time > $0 }) ?? true { last = time }
    }

    /// The first and last time; the epoch for a feed without times.
    public var value: (start: Timestamp, end: Timestamp) {
        let start = first ?? Timestamp(secondsSince1970: 0)
        return (start, last ?? start)
    }
}
