import GeoCore

/// A named place that fixes can be inside of: a circle or a polygonal area.
///
/// `id` is the caller's name for the region (a CSV id, a GeoJSON feature id,
/// a task location name); `task` links a bulk region to a task when the
/// source says so.
public struct Region: Hashable, Sendable {
    /// The region's name as its source wrote it.
    public var id: String
    /// Where the region is.
    public var shape: Shape
    /// The task this region belongs to, when the source names one.
    public var task: String?

    /// Creates a region.
    public init(id: String, shape: Shape, task: String? = nil) {
        self.id = id
        self.shape = shape
        self.task = task
    }
}

extension Region {
    /// The region with `metres` added to a circle's radius (at least 1 cm
    /// is left); an area as it is.
    public func padded(by metres: Double) -> Region {
        guard metres != 0, case .circle(var circle) = shape else { return self }
        circle.radius = max(circle.radius + metres, 0.01)
        return Region(id: id, shape: .circle(circle), task: task)
    }
}

/// A circle on the sphere: every point within `radius` metres (haversine) of
/// `centre`, boundary included.
public struct Circle: Hashable, Sendable {
    /// The centre of the circle.
    public var centre: Coordinate
    /// The radius in metres; positive.
    public var radius: Double

    /// Creates a circle.
    public init(centre: Coordinate, radius: Double) {
        self.centre = centre
        self.radius = radius
    }
}

/// The geometry of a region.
public enum Shape: Hashable, Sendable {
    /// A circle: centre and radius in metres.
    case circle(Circle)
    /// One or more polygons with holes (a GeoJSON Polygon or MultiPolygon).
    indirect case area(Area)

    /// A circle around `centre` with `radius` metres.
    public static func circle(centre: Coordinate, radius: Double) -> Shape {
        .circle(Circle(centre: centre, radius: radius))
    }

    /// Whether `point` is inside the shape (boundary included for circles).
    public func contains(_ point: Coordinate) -> Bool {
        switch self {
        case .circle(let circle): return Geodesy.distance(circle.centre, point) <= circle.radius
        case .area(let area): return area.contains(point)
        }
    }

    /// The distance reported with a transition: metres from a circle's
    /// centre, or from an area's boundary (0 inside the area).
    public func reportedDistance(from point: Coordinate) -> Double {
        switch self {
        case .circle(let circle): return Geodesy.distance(circle.centre, point)
        case .area(let area): return area.contains(point) ? 0 : area.distanceToBoundary(from: point)
        }
    }

    /// How far `point` lies beyond the fence, in metres: distance − radius
    /// for a circle, the distance to the boundary outside an area, and 0 or
    /// less inside. The exit rule compares this with accuracy + hysteresis.
    public func excess(at point: Coordinate) -> Double {
        switch self {
        case .circle(let circle): return Geodesy.distance(circle.centre, point) - circle.radius
        case .area(let area): return area.contains(point) ? 0 : area.distanceToBoundary(from: point)
        }
    }

    /// A size in metres for the default hysteresis: a circle's radius, or
    /// the radius of a circle with an area's surface.
    public var characteristicRadius: Double {
        switch self {
        case .circle(let circle): return circle.radius
        case .area(let area): return area.equivalentRadius
        }
    }

    /// A box that holds every point the shape contains, with a small safety
    /// margin so that rounding can never push a contained point outside.
    public var boundingBox: BoundingBox {
        switch self {
        case .circle(let circle):
            return BoundingBox.around(circle.centre, radius: circle.radius * (1 + 1e-6) + 1e-3)
        case .area(let area):
            return area.boundingBox
        }
    }

    /// Where the straight segment from `start` to `end` comes closest to (or
    /// passes through the middle of) the shape, as a fraction 0…1 of the
    /// segment, when the segment passes through the shape; `nil` otherwise.
    ///
    /// For a circle this is the point of closest approach to the centre; for
    /// an area, the middle of the first stretch of the segment inside it.
    public func crossing(from start: Coordinate, to end: Coordinate) -> Double? {
        switch self {
        case .circle(let circle): return circle.closestApproach(from: start, to: end)
        case .area(let area): return area.firstInsideMidpoint(from: start, to: end)
        }
    }
}

extension Circle {
    /// The fraction 0…1 along the segment `start`→`end` where it comes
    /// closest to the centre, if the circle contains that closest point.
    ///
    /// The segment is a straight line in a local equirectangular projection
    /// around the centre (exact enough for the few kilometres between two
    /// fixes); containment of the closest point is decided by haversine.
    public func closestApproach(from start: Coordinate, to end: Coordinate) -> Double? {
        let scale = Geodesy.metresPerDegree
        let cosLat = cosine(degrees: centre.latitude)
        func local(_ point: Coordinate) -> (x: Double, y: Double) {
            let dLon = Geodesy.wrapLongitude(point.longitude - centre.longitude)
            return (dLon * cosLat * scale, (point.latitude - centre.latitude) * scale)
        }
        let a = local(start)
        var b = local(end)
        // Keep the segment short across the antimeridian.
        let lonStep = end.longitude - start.longitude
        if abs(lonStep) > 180 {
            b.x = a.x + Geodesy.wrapLongitude(lonStep) * cosLat * scale
        }
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var fraction = 0.0
        if lengthSquared > 0 {
            fraction = min(1, max(0, -(a.x * dx + a.y * dy) / lengthSquared))
        }
        let closest = interpolate(from: start, to: end, fraction: fraction)
        let outside = certainlyFarther(than: radius, from: closest) ?? !(Geodesy.distance(centre, closest) <= radius)
        return outside ? nil : fraction
    }
}

/// The point `fraction` of the way from `start` to `end`, linear in lat/lon
/// (along the short way round across the antimeridian).
public func interpolate(from start: Coordinate, to end: Coordinate, fraction: Double) -> Coordinate {
    let dLon = Geodesy.wrapLongitude(end.longitude - start.longitude)
    return Coordinate(
        latitude: start.latitude + (end.latitude - start.latitude) * fraction,
        longitude: Geodesy.wrapLongitude(start.longitude + dLon * fraction)
    )
}
