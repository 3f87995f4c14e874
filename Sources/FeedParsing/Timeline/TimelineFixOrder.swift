import GeoCore

/// Hands a Timeline export's fixes on in time order.
///
/// The export lists its semantic segments and its raw signals in two
/// sections whose times overlap, and a path's points, a visit's ends and
/// the raw positions of the same minutes come from different sections; so
/// every fix is held to the end of the file and handed on sorted by time
/// (fixes of the same time in file order). A fix repeating an earlier one
/// of the same time and position (iOS writes a path's point twice when it
/// was still) is dropped.
///
/// Google's visits overlap the paths around them: a visit may end minutes
/// after the path away from it began. A visit's end is therefore moved to
/// just before the first other fix of the visit's span that lies more than
/// ``awayDistance`` from its place, so that a replay sees one stay, not a
/// return. A pure state machine: fixes in, fixes out.
struct TimelineFixOrder {
    /// How far from a visit's place a fix puts the person elsewhere.
    static let awayDistance = 100.0

    /// A visit's end, held apart until the other fixes are sorted.
    private struct VisitEnd {
        var fix: Fix
        let start: Timestamp
        /// Its place in file order, among all fixes.
        let order: Int
    }

    private var held: [Fix] = []
    private var heldOrder: [Int] = []
    private var visitEnds: [VisitEnd] = []

    /// Takes the next fix in file order; each has a time.
    mutating func add(_ fix: Fix) {
        heldOrder.append(held.count + visitEnds.count)
        held.append(fix)
    }

    /// Takes the end of a visit that began at `start`.
    mutating func addVisitEnd(_ fix: Fix, start: Timestamp) {
        visitEnds.append(VisitEnd(fix: fix, start: start, order: held.count + visitEnds.count))
    }

    /// Ends the file: appends every fix held, oldest first, to `fixes`;
    /// returns how many repeats were dropped.
    mutating func finish(into fixes: inout [Fix]) -> Int {
        var entries = zip(held, heldOrder).map { (fix: $0, order: $1) }
        entries.sort { ($0.fix.time!, $0.order) < ($1.fix.time!, $1.order) }
        let others = entries.map(\.fix)
        for visitEnd in visitEnds {
            guard let end = Self.end(of: visitEnd, among: others) else { continue }
            entries.append((end, visitEnd.order))
        }
        if !visitEnds.isEmpty { entries.sort { ($0.fix.time!, $0.order) < ($1.fix.time!, $1.order) } }
        var repeats = 0
        var sameTime: Range<Int> = 0..<0
        fixes.reserveCapacity(fixes.count + entries.count)
        for (fix, _) in entries {
            if sameTime.isEmpty || fixes[sameTime.lowerBound].time != fix.time {
                sameTime = fixes.count..<fixes.count
            } else if fixes[sameTime].contains(where: { $0.coordinate == fix.coordinate }) {
                repeats += 1
                continue
            }
            fixes.append(fix)
            sameTime = sameTime.lowerBound..<fixes.count
        }
        held = []
        heldOrder = []
        visitEnds = []
        return repeats
    }

    /// A visit's end fix, moved to a millisecond before the first of the
    /// sorted `others` after the visit's start and before its end that is
    /// away from its place; `nil` when that leaves no time after the start.
    private static func end(of visit: VisitEnd, among others: [Fix]) -> Fix? {
        var fix = visit.fix
        guard let end = fix.time else { return nil }
        var low = 0
        var high = others.count
        while low < high {
            let middle = (low + high) / 2
            if others[middle].time! <= visit.start { low = middle + 1 } else { high = middle }
        }
        for other in others[low...] {
            guard let time = other.time, time < end else { break }
            if Geodesy.distance(other.coordinate, fix.coordinate) > awayDistance {
                let before = Timestamp(nanoseconds: time.nanoseconds - 1_000_000, fractionDigits: 3)
                guard before > visit.start else { return nil }
                fix.time = before
                break
            }
        }
        return fix
    }
}
