import GeoCore
import Geofencing

/// The nearest named place within a distance of a point, through the
/// spatial grid: each place is indexed as a circle of that distance around
/// its centre, so a query visits only the places close enough to count.
public struct NearestPlaces: Sendable {
    private let places: [NamedPlace]
    private let index: SpatialGrid
    /// How far from a place's centre a point may be to be near it, in metres.
    public let within: Double

    /// An index of `places` that finds them up to `within` metres away.
    public init(places: [NamedPlace], within: Double) {
        self.places = places
        self.within = within
        index = SpatialGrid(shapes: places.map { .circle(centre: $0.centre, radius: within) })
    }

    /// The place whose centre is nearest to `point`, if one is within reach,
    /// and the distance to its centre in metres (ties: the first place).
    public func nearest(to point: Coordinate) -> (place: NamedPlace, distance: Double)? {
        var bestKey = -1
        var bestDistance = Double.infinity
        index.forEachRegion(containing: point) { key in
            let distance = Geodesy.distance(point, places[key].centre)
            if distance < bestDistance || (distance == bestDistance && key < bestKey) {
                bestKey = key
                bestDistance = distance
            }
        }
        return bestKey < 0 ? nil : (places[bestKey], bestDistance)
    }
}
