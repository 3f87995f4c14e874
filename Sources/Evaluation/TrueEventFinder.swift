import Foundation
import GeoCore
import Geofencing

/// The true entries and exits of a truth track: where the person really
/// crossed each region's boundary.
///
/// The path between two truth points is the straight segment, latitude,
/// longitude and time interpolated linearly (DESIGN.md). An `enter` is at
/// the interpolated moment on a segment where the path goes from outside
/// to inside a region — for a circle, where the great-circle distance
/// equals the radius; for a polygon, where the segment crosses its boundary
/// — and an `exit` likewise; a segment that passes through a region gives
/// both. A track that starts inside a region has no entry there. No
/// hysteresis, confirmation or accuracy rule applies: this is where the
/// person really was.
///
/// The boundary is found by bisection on containment along the segment, to
/// a tenth of a millisecond; candidates come from the same spatial grid the
/// detector uses, so a long truth against many regions stays fast.
public final class TrueEventFinder: Sendable {
    private let regions: [Region]
    private let index: SpatialGrid
    private let containment: ContainmentTest

    /// A finder over `regions`.
    public init(regions: [Region]) {
        self.regions = regions
        index = SpatialGrid(shapes: regions.map(\.shape))
        containment = ContainmentTest(shapes: regions.map(\.shape))
    }

    /// The true events of one device's truth track, `points` in time order,
    /// ordered by time (entries before exits at the same instant of
    /// different regions, then by region order).
    public func events<Points: Sequence>(along points: Points, device: String?) -> [ScoredEvent]
    where Points.Element == TruthPoint {
        var found = Found(device: device)
        scan(Array(points), into: &found)
        return found.sorted()
    }

    /// The boundary crossings of `track` (in time order), added to `found`.
    ///
    /// The track is taken in stretches of up to 256 segments within about
    /// a kilometre: one index query finds the regions near a stretch, and
    /// each is followed along it, containment computed once per point.
    /// Each segment's events depend on its two points alone, so a track
    /// scanned in pieces that share their end points finds what it finds
    /// whole.
    func scan(_ track: [TruthPoint], into found: inout Found) {
        func report(_ kind: ScoredEvent.Kind, _ time: Timestamp, _ key: Int) {
            found.add(ScoredEvent(kind: kind, time: time, region: regions[key].id, device: found.device), key: key)
        }
        var candidates: [Int] = []
        var first = 0
        while first + 1 < track.count {
            if Self.wraps(track[first], track[first + 1]) {
                // Across the antimeridian: this segment on its own.
                let (a, b) = (track[first], track[first + 1])
                index.forEachCandidate(intersecting: Self.box(a.coordinate, b.coordinate)) { key in
                    let start = containment.contains(a.coordinate, key: key)
                    segment(
                        a, b, key: key, insideAtStart: start, insideAtEnd: containment.contains(b.coordinate, key: key), report)
                }
                first += 1
                continue
            }
            var box = Self.box(track[first].coordinate, track[first + 1].coordinate)
            var last = first + 1
            while last + 1 < track.count, last - first < 256, !Self.wraps(track[last], track[last + 1]) {
                let next = track[last + 1].coordinate
                let grown = BoundingBox(
                    south: min(box.south, next.latitude), north: max(box.north, next.latitude),
                    west: min(box.west, next.longitude), east: max(box.east, next.longitude))
                guard grown.north - grown.south <= 0.002, grown.east - grown.west <= 0.002 else { break }
                box = grown
                last += 1
            }
            candidates.removeAll(keepingCapacity: true)
            index.forEachCandidate(intersecting: box) { candidates.append($0) }
            for key in candidates {
                var insideBefore = containment.contains(track[first].coordinate, key: key)
                for position in first..<last {
                    let insideAfter = containment.contains(track[position + 1].coordinate, key: key)
                    segment(
                        track[position], track[position + 1], key: key, insideAtStart: insideBefore, insideAtEnd: insideAfter,
                        report)
                    insideBefore = insideAfter
                }
            }
            first = last
        }
    }

    /// The events found on one device's track, with the region's place in
    /// the finder's list to order them by.
    struct Found: Sendable {
        let device: String?
        private var events: [(event: ScoredEvent, key: Int)] = []

        init(device: String?) { self.device = device }

        mutating func add(_ event: ScoredEvent, key: Int) { events.append((event, key)) }

        /// The events by time, entries before exits at the same instant of
        /// different regions, then by region order.
        func sorted() -> [ScoredEvent] {
            // Sorted by small keys, not by the events (whose strings would be
            // retained and released at every comparison).
            let keys = events.map { ($0.event.time.nanoseconds, $0.key, $0.event.kind == .exit) }
            let order = keys.indices.sorted { i, j in
                let (a, b) = (keys[i], keys[j])
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                return !a.2 && b.2
            }
            return order.map { events[$0].event }
        }
    }

    /// Reports the boundary crossings of the region under `key` on the
    /// segment `start`→`end`, given containment at its ends.
    private func segment(
        _ start: TruthPoint, _ end: TruthPoint, key: Int, insideAtStart: Bool, insideAtEnd: Bool,
        _ report: (ScoredEvent.Kind, Timestamp, Int) -> Void
    ) {
        if insideAtStart, insideAtEnd { return }
        let a = start.coordinate
        let b = end.coordinate
        if !insideAtStart, !insideAtEnd, !containment.mayPassThrough(key, a, b) { return }
        let duration = max(end.time.nanoseconds(since: start.time), 1)
        func at(_ fraction: Double) -> Timestamp { Self.time(from: start.time, to: end.time, fraction: fraction) }
        func boundary(from low: Double, to high: Double, insideAtLow: Bool) -> Double {
            containment.boundary(key, a, b, from: low, to: high, insideAtLow: insideAtLow, nanoseconds: duration)
        }
        switch (insideAtStart, insideAtEnd) {
        case (false, true):
            report(.enter, at(boundary(from: 0, to: 1, insideAtLow: false)), key)
        case (true, false):
            report(.exit, at(boundary(from: 0, to: 1, insideAtLow: true)), key)
        default:
            guard let middle = regions[key].shape.crossing(from: a, to: b),
                containment.contains(interpolate(from: a, to: b, fraction: middle), key: key)
            else { return }
            report(.enter, at(boundary(from: 0, to: middle, insideAtLow: false)), key)
            report(.exit, at(boundary(from: middle, to: 1, insideAtLow: true)), key)
        }
    }

    /// Whether the segment goes more than half-way round in longitude:
    /// the short way crosses the antimeridian.
    private static func wraps(_ a: TruthPoint, _ b: TruthPoint) -> Bool {
        abs(b.coordinate.longitude - a.coordinate.longitude) > 180
    }

    /// The box of a segment, the short way round.
    private static func box(_ a: Coordinate, _ b: Coordinate) -> BoundingBox {
        let eastward = Geodesy.wrapLongitude(b.longitude - a.longitude) >= 0
        return BoundingBox(
            south: min(a.latitude, b.latitude), north: max(a.latitude, b.latitude),
            west: eastward ? a.longitude : b.longitude, east: eastward ? b.longitude : a.longitude)
    }

    /// The moment `fraction` (0…1) of the way from `start` to `end`, with
    /// millisecond digits; never past either end.
    private static func time(from start: Timestamp, to end: Timestamp, fraction: Double) -> Timestamp {
        let offset = Int64(exactly: (end.nanoseconds(since: start) * fraction).rounded()) ?? 0
        let (sum, past) = start.nanoseconds.addingReportingOverflow(offset)
        let nanoseconds = past ? end.nanoseconds : min(max(sum, min(start, end).nanoseconds), max(start, end).nanoseconds)
        // To the nearest millisecond, half up, unless that passes the last instant.
        let (up, beyond) = nanoseconds.addingReportingOverflow(500_000)
        let milliseconds = (beyond ? nanoseconds : up).quotientAndRemainder(dividingBy: 1_000_000).quotient * 1_000_000
        return Timestamp(nanoseconds: milliseconds, fractionDigits: 3)
    }
}
