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
/// ``awayDistance`` from its place beyond its own accuracy (as the exit rule
/// reads a fix), so that a replay sees one stay, not a return. A pure state
/// machine: fixes in, fixes out.
struct TimelineFixOrder {
    /// How far from a visit's place, beyond its accuracy, a fix puts the
    /// person elsewhere.
    static let awayDistance = 100.0

    /// A visit's end, held apart until the other fixes are sorted.
    private struct VisitEnd {
        var fix: Fix
        let start: Timestamp
        /// Its place in file order, among all fixes.
        let sequence: Int
    }

    private var held: [Fix] = []
    /// Each held fix's place in file order, among all fixes.
    private var sequences: [UInt32] = []
    private var visitEnds: [VisitEnd] = []
    private var count = 0

    /// Takes the next fix in file order; each has a time.
    mutating func add(_ fix: Fix) {
        held.append(fix)
        sequences.append(UInt32(truncatingIfNeeded: count))
        count += 1
    }

    /// Takes the end of a visit that began at `start`.
    mutating func addVisitEnd(_ fix: Fix, start: Timestamp) {
        visitEnds.append(VisitEnd(fix: fix, start: start, sequence: count))
        count += 1
    }

    /// Ends the file: appends every fix held, oldest first, to `fixes`;
    /// returns how many repeats were dropped. The fixes are sorted by
    /// index, not moved, so that a long export is held twice at most.
    mutating func finish(into fixes: inout [Fix]) -> Int {
        let times = held.map { $0.time?.nanoseconds ?? .min }
        var sorted = Array(0..<UInt32(truncatingIfNeeded: held.count))
        sorted.sort { (times[Int($0)], $0) < (times[Int($1)], $1) }
        let ends = visitEnds.compactMap { end(of: $0, sorted: sorted, times: times) }
            .sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        var output = Output(fixes: fixes)
        output.fixes.reserveCapacity(fixes.count + held.count + ends.count)
        var next = 0
        for index in sorted.lazy.map(Int.init) {
            while next < ends.count, (ends[next].time, ends[next].sequence) < (times[index], Int(sequences[index])) {
                output.append(ends[next].fix)
                next += 1
            }
            output.append(held[index])
        }
        for end in ends[next...] { output.append(end.fix) }
        held = []
        sequences = []
        visitEnds = []
        fixes = output.fixes
        return output.repeats
    }

    /// The fixes handed on, and the repeats dropped from them.
    private struct Output {
        var fixes: [Fix]
        var repeats = 0
        /// The fixes of the last time appended.
        private var sameTime: Range<Int> = 0..<0

        init(fixes: [Fix]) {
            self.fixes = fixes
        }

        mutating func append(_ fix: Fix) {
            if sameTime.isEmpty || fixes[sameTime.lowerBound].time != fix.time {
                sameTime = fixes.count..<fixes.count
            } else if fixes[sameTime].contains(where: { $0.coordinate == fix.coordinate }) {
                repeats += 1
                return
            }
            fixes.append(fix)
            sameTime = sameTime.lowerBound..<fixes.count
        }
    }

    /// A visit's end fix, moved to a millisecond before the first of the
    /// held fixes (`sorted` by their `times`) after the visit's start and
    /// before its end that is away from its place; `nil` when that leaves
    /// no time after the start.
    private func end(of visit: VisitEnd, sorted: [UInt32], times: [Int64]) -> (fix: Fix, time: Int64, sequence: Int)? {
        var fix = visit.fix
        guard var end = fix.time?.nanoseconds else { return nil }
        let start = visit.start.nanoseconds
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if times[Int(sorted[middle])] <= start { low = middle + 1 } else { high = middle }
        }
        for index in sorted[low...].lazy.map(Int.init) {
            guard times[index] < end else { break }
            let other = held[index]
            if Geodesy.distance(other.coordinate, fix.coordinate) - (other.accuracy ?? 0) > Self.awayDistance {
                end = times[index] - 1_000_000
                guard end > start else { return nil }
                fix.time = Timestamp(nanoseconds: end, fractionDigits: 3)
                break
            }
        }
        return (fix, end, visit.sequence)
    }
}
