import Foundation
import GeoCore
import Geofencing

/// Whether a point is inside a region, as ``Shape/contains(_:)`` says,
/// with a shortcut for the usual case: a point clearly inside or clearly
/// outside a circle is decided on a local flat plane (no trigonometry),
/// and only points within 2 % of the radius from the fence get the
/// haversine.
///
/// The plane is equirectangular around the centre; for circles of at most
/// 5 km away from the poles (|latitude| ≤ 80°) its error stays far below
/// 2 % of the distance near the fence, so the answer is the haversine's.
/// Other shapes always take ``Shape/contains(_:)``.
struct ContainmentTest: Sendable {
    /// A circle's centre and its squared radii on the plane.
    private struct PlanarCircle: Sendable {
        var centre: Coordinate
        var cosLatitude: Double
        /// (0.98 r)²: nearer is inside.
        var surelyInside: Double
        /// (1.02 r)²: farther is outside.
        var surelyOutside: Double
        /// The radius in metres.
        var radius: Double
    }

    private let shapes: [Shape]
    private let circles: [PlanarCircle?]

    /// A test over `shapes` (keys are their positions).
    init(shapes: [Shape]) {
        self.shapes = shapes
        circles = shapes.map { shape in
            guard case .circle(let circle) = shape, circle.radius <= 5_000, abs(circle.centre.latitude) <= 80 else {
                return nil
            }
            return PlanarCircle(
                centre: circle.centre, cosLatitude: cos(circle.centre.latitude * .pi / 180),
                surelyInside: (0.98 * circle.radius) * (0.98 * circle.radius),
                surelyOutside: (1.02 * circle.radius) * (1.02 * circle.radius), radius: circle.radius)
        }
    }

    /// Whether `point` is inside the shape under `key`.
    func contains(_ point: Coordinate, key: Int) -> Bool {
        if let circle = circles[key], abs(point.latitude) <= 80 {
            let x = Geodesy.wrapLongitude(point.longitude - circle.centre.longitude) * circle.cosLatitude
            let y = point.latitude - circle.centre.latitude
            let squared = (x * x + y * y) * (Geodesy.metresPerDegree * Geodesy.metresPerDegree)
            if squared < circle.surelyInside { return true }
            if squared > circle.surelyOutside { return false }
        }
        return shapes[key].contains(point)
    }

    /// The segment `a`→`b` on the plane around `circle`'s centre, in
    /// degrees of latitude (the short way round in longitude).
    private static func plane(
        _ circle: PlanarCircle, _ a: Coordinate, _ b: Coordinate
    ) -> (
        p: (x: Double, y: Double), d: (x: Double, y: Double)
    ) {
        func point(_ c: Coordinate) -> (x: Double, y: Double) {
            (
                Geodesy.wrapLongitude(c.longitude - circle.centre.longitude) * circle.cosLatitude,
                c.latitude - circle.centre.latitude
            )
        }
        let p = point(a)
        var q = point(b)
        if abs(q.x - p.x) > 180 * circle.cosLatitude { q.x += (q.x < p.x ? 360 : -360) * circle.cosLatitude }
        return (p, (q.x - p.x, q.y - p.y))
    }

    /// Whether the segment `a`→`b`, both ends outside, may pass through
    /// the shape under `key`: `false` only for a circle whose centre is
    /// clearly farther from the segment (on the plane) than its radius.
    func mayPassThrough(_ key: Int, _ a: Coordinate, _ b: Coordinate) -> Bool {
        guard let circle = circles[key], abs(a.latitude) <= 80, abs(b.latitude) <= 80 else { return true }
        let (p, d) = Self.plane(circle, a, b)
        let length = d.x * d.x + d.y * d.y
        let along = length > 0 ? min(max(-(p.x * d.x + p.y * d.y) / length, 0), 1) : 0
        let (cx, cy) = (p.x + along * d.x, p.y + along * d.y)
        return (cx * cx + cy * cy) * (Geodesy.metresPerDegree * Geodesy.metresPerDegree) <= circle.surelyOutside
    }

    /// The fraction between `low` and `high` where containment in the
    /// shape under `key` changes along the segment `a`→`b` (containment at
    /// `low` is `insideAtLow`, at `high` the opposite), to a tenth of a
    /// millisecond of the segment's `nanoseconds`; the end on the inside is
    /// returned.
    ///
    /// For a circle the crossing of the plane narrows the search to a
    /// millisecond around it first (checked against the haversine at both
    /// ends of that bracket); then bisection.
    func boundary(
        _ key: Int, _ a: Coordinate, _ b: Coordinate, from low: Double, to high: Double, insideAtLow: Bool,
        nanoseconds: Double
    ) -> Double {
        var low = low
        var high = high
        func side(_ fraction: Double) -> Bool { contains(interpolate(from: a, to: b, fraction: fraction), key: key) }
        if let guess = planarCrossing(key, a, b, entering: !insideAtLow) {
            let margin = 1_000_000 / max(nanoseconds, 1)
            let (lower, upper) = (max(low, guess - margin), min(high, guess + margin))
            if lower < upper, side(lower) == insideAtLow, side(upper) != insideAtLow { (low, high) = (lower, upper) }
        }
        let steps = min(60, max(0, Int(log2((high - low) * nanoseconds / 100_000).rounded(.up))))
        for _ in 0..<steps {
            let middle = (low + high) / 2
            if side(middle) == insideAtLow { low = middle } else { high = middle }
        }
        return insideAtLow ? low : high
    }

    /// Where the segment `a`→`b` crosses the circle under `key` on the
    /// plane: the first crossing when `entering`, else the last; `nil` for
    /// other shapes or no crossing.
    private func planarCrossing(_ key: Int, _ a: Coordinate, _ b: Coordinate, entering: Bool) -> Double? {
        guard let circle = circles[key], abs(a.latitude) <= 80, abs(b.latitude) <= 80 else {
            return nil
        }
        let (p, d) = Self.plane(circle, a, b)
        let r = circle.radius / Geodesy.metresPerDegree
        let qa = d.x * d.x + d.y * d.y
        let qb = 2 * (p.x * d.x + p.y * d.y)
        let qc = p.x * p.x + p.y * p.y - r * r
        let discriminant = qb * qb - 4 * qa * qc
        guard qa > 0, discriminant >= 0 else { return nil }
        let root = discriminant.squareRoot()
        return entering ? (-qb - root) / (2 * qa) : (-qb + root) / (2 * qa)
    }
}
