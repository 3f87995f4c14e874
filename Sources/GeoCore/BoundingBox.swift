/// A latitude/longitude rectangle that may cross the antimeridian.
///
/// `west` and `east` are the box's edges in degrees; when `west > east` the
/// box wraps across ±180° (for example west 170, east −170 is a 20° wide box
/// around the date line).
public struct BoundingBox: Hashable, Sendable {
    /// The southern edge in degrees.
    public var south: Double
    /// The northern edge in degrees.
    public var north: Double
    /// The western edge in degrees; greater than ``east`` when the box wraps.
    public var west: Double
    /// The eastern edge in degrees.
    public var east: Double

    /// Creates a box from its four edges.
    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { west > east }

    /// Whether `coordinate` lies inside the box or on its edge.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        if crossesAntimeridian {
            return coordinate.longitude >= west || coordinate.longitude <= east
        }
        return coordinate.longitude >= west && coordinate.longitude <= east
    }

    /// The smallest box that holds every point within `radius` metres of
    /// `centre` (great-circle distance).
    ///
    /// Near a pole (when the circle reaches it) the box spans all longitudes.
    /// A box wider than 360° is clamped to the whole longitude range.
    public static func around(_ centre: Coordinate, radius: Double) -> BoundingBox {
        let angular = radius / Geodesy.earthRadius
        let latDelta = angular * 180 / .pi
        let south = centre.latitude - latDelta
        let north = centre.latitude + latDelta
        if south <= -90 || north >= 90 {
            return BoundingBox(south: max(-90, south), north: min(90, north), west: -180, east: 180)
        }
        // Widest longitude extent of a spherical cap: asin(sin δ / cos φ).
        let phi = centre.latitude * .pi / 180
        let ratio = _sin(angular) / _cos(phi)
        guard ratio < 1 else {
            return BoundingBox(south: south, north: north, west: -180, east: 180)
        }
        let lonDelta = _asin(ratio) * 180 / .pi
        if lonDelta >= 180 {
            return BoundingBox(south: south, north: north, west: -180, east: 180)
        }
        return BoundingBox(
            south: south, north: north,
            west: Geodesy.wrapLongitude(centre.longitude - lonDelta),
            east: Geodesy.wrapLongitude(centre.longitude + lonDelta)
        )
    }
}
