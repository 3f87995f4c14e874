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
public struct TrueEventFinder: Sendable {
    private let regions: [Region]
    private let index: SpatialGrid

    /// A finder over `regions`.
    public init(regions: [Region]) {
        self.regions = regions
        index = SpatialGrid(shapes: regions.map(\.shape))
    }

    /// The true events of one device's truth track, `points` in time order,
    /// ordered by time (entries before exits at the same instant of
    /// different regions, then by region order).
    public func events<Points: Sequence>(along points: Points, device: String?) -> [ScoredEvent]
    where Points.Element == TruthPoint {
        var found: [(event: ScoredEvent, key: Int)] = []
        var previous: TruthPoint?
        for point in points {
            defer { previous = point }
            guard let start = previous else { continue }
            crossings(from: start, to: point) { kind, time, key in
                found.append((ScoredEvent(kind: kind, time: time, region: regions[key].id, device: device), key))
            }
        }
        return found.sorted { a, b in
            if a.event.time != b.event.time { return a.event.time < b.event.time }
            if a.key != b.key { return a.key < b.key }
            return a.event.kind == .enter && b.event.kind == .exit
        }.map(\.event)
    }

    /// Calls `report` for each boundary crossing on the segment.
    private func crossings(from start: TruthPoint, to end: TruthPoint, report: (ScoredEvent.Kind, Timestamp, Int) -> Void) {
        let a = start.coordinate
        let b = end.coordinate
        let eastward = Geodesy.wrapLongitude(b.longitude - a.longitude) >= 0
        let box = BoundingBox(
            south: min(a.latitude, b.latitude), north: max(a.latitude, b.latitude),
            west: eastward ? a.longitude : b.longitude, east: eastward ? b.longitude : a.longitude)
        // No point of the segment is farther from its end than this: along
        // the meridian, then along a parallel (cos φ ≤ 1).
        let dLon = abs(b.longitude - a.longitude)
        let reach = (abs(b.latitude - a.latitude) + min(dLon, 360 - dLon)) * Geodesy.metresPerDegree
        // Bisect until the interval is under 0.1 ms of the segment's time
        // (times are written to the millisecond).
        let duration = Double(max(end.time.nanoseconds - start.time.nanoseconds, 1))
        let steps = min(60, max(1, Int((log2(duration / 100_000)).rounded(.up))))
        index.forEachCandidate(intersecting: box, within: reach, of: b) { key in
            let shape = regions[key].shape
            let insideAtStart = shape.contains(a)
            let insideAtEnd = shape.contains(b)
            func at(_ fraction: Double) -> Timestamp { Self.time(from: start.time, to: end.time, fraction: fraction) }
            func boundary(from low: Double, to high: Double, insideAtLow: Bool) -> Double {
                Self.boundary(shape, a, b, from: low, to: high, insideAtLow: insideAtLow, steps: steps)
            }
            switch (insideAtStart, insideAtEnd) {
            case (false, true):
                report(.enter, at(boundary(from: 0, to: 1, insideAtLow: false)), key)
            case (true, false):
                report(.exit, at(boundary(from: 0, to: 1, insideAtLow: true)), key)
            case (false, false):
                guard let middle = shape.crossing(from: a, to: b), shape.contains(interpolate(from: a, to: b, fraction: middle))
                else { return }
                report(.enter, at(boundary(from: 0, to: middle, insideAtLow: false)), key)
                report(.exit, at(boundary(from: middle, to: 1, insideAtLow: true)), key)
            case (true, true):
                return
            }
        }
    }

    /// The fraction between `low` and `high` where containment changes,
    /// by `steps` bisections (containment at `low` is `insideAtLow`, at
    /// `high` the opposite).
    private static func boundary(
        _ shape: Shape, _ a: Coordinate, _ b: Coordinate, from low: Double, to high: Double, insideAtLow: Bool, steps: Int
    ) -> Double {
        var low = low
        var high = high
        for _ in 0..<steps {
            let middle = (low + high) / 2
            if shape.contains(interpolate(from: a, to: b, fraction: middle)) == insideAtLow {
                low = middle
            } else {
                high = middle
            }
        }
        return insideAtLow ? low : high
    }

    /// The moment `fraction` of the way from `start` to `end`, with
    /// millisecond digits.
    private static func time(from start: Timestamp, to end: Timestamp, fraction: Double) -> Timestamp {
        let nanoseconds = start.nanoseconds + Int64((Double(end.nanoseconds - start.nanoseconds) * fraction).rounded())
        let milliseconds = (nanoseconds + 500_000).quotientAndRemainder(dividingBy: 1_000_000).quotient * 1_000_000
        return Timestamp(nanoseconds: milliseconds, fractionDigits: 3)
    }
}
