import GeoCore

/// A point on a flat plane: metres east and north of a projection's
/// centre, or pixels right and down on a drawing.
public struct PlanePoint: Hashable, Sendable {
    /// East (metres) or right (pixels).
    public var x: Double
    /// North (metres) or down (pixels).
    public var y: Double

    /// A point from its two components.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The local equirectangular projection around a centre: metres east and
/// north of it, true at city scale.
///
/// x = R · cos φ₀ · Δλ and y = R · Δφ, with R the mean Earth radius, φ₀ the
/// centre's latitude and Δλ the longitude difference wrapped into
/// −180…180°, so that a track across the antimeridian stays in one piece
/// when the centre is near it. Within 10 km of the centre at latitudes
/// below 60° a distance on the plane is within 1 % of the great-circle
/// distance; north is up everywhere.
public struct LocalProjection: Hashable, Sendable {
    /// The point projected to (0, 0).
    public let centre: Coordinate
    /// Metres east per degree of longitude at the centre's latitude.
    public let metresPerDegreeEast: Double

    /// The projection around `centre`.
    public init(centre: Coordinate) {
        self.centre = centre
        metresPerDegreeEast = Geodesy.metresPerDegree * cosine(degrees: centre.latitude)
    }

    /// Metres east and north of the centre.
    @inlinable
    public func project(_ coordinate: Coordinate) -> PlanePoint {
        PlanePoint(
            x: Geodesy.wrapLongitude(coordinate.longitude - centre.longitude) * metresPerDegreeEast,
            y: (coordinate.latitude - centre.latitude) * Geodesy.metresPerDegree)
    }

    /// The half-axes in plane metres of a circle of `radius` metres around
    /// `centre`: north–south it is `radius`; east–west the degrees it spans
    /// at its own latitude, measured with the centre's scale (a circle
    /// north of the projection's centre comes out a little wider).
    public func ellipse(centre: Coordinate, radius: Double) -> (x: Double, y: Double) {
        let own = cosine(degrees: centre.latitude)
        let degreesEast = own > 1e-9 ? radius / (Geodesy.metresPerDegree * own) : 360
        return (min(degreesEast, 360) * metresPerDegreeEast, radius)
    }
}
