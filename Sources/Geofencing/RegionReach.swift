import GeoCore

/// How far a position lies from a table of regions. A run that finds no
/// transition on a feed far from every region most often has a regions
/// file of another place, or one with latitude and longitude the wrong
/// way round: ``metresSwapped`` tells the two apart.
public struct RegionReach: Equatable, Sendable {
    /// The name of the region nearest the position.
    public var nearest: String
    /// Metres from the position to that region's fence (0 inside it).
    public var metres: Double
    /// Metres to the fence of the nearest circle, were its centre's
    /// latitude and longitude exchanged; `nil` when no circle's can be (a
    /// longitude beyond ±90°, or areas only).
    public var metresSwapped: Double?

    /// The reach of `regions` from `position`; `nil` without regions. One
    /// distance per region: for the end of a run, not for every fix.
    public static func of(_ regions: RegionTable, from position: Coordinate) -> RegionReach? {
        var reach: RegionReach?
        for key in regions.indices {
            let shape = regions.shape(at: key)
            let metres = max(0, shape.excess(at: position))
            if reach.map({ metres < $0.metres }) ?? true {
                reach = RegionReach(nearest: regions.name(at: key), metres: metres, metresSwapped: reach?.metresSwapped)
            }
            guard case .circle(let circle) = shape, abs(circle.centre.longitude) <= 90 else { continue }
            let swapped = Coordinate(latitude: circle.centre.longitude, longitude: circle.centre.latitude)
            let metresSwapped = max(0, Geodesy.distance(swapped, position) - circle.radius)
            if reach?.metresSwapped.map({ metresSwapped < $0 }) ?? true { reach?.metresSwapped = metresSwapped }
        }
        return reach
    }
}
