import GeoCore

/// The smallest latitude band and longitude arc that hold a set of
/// coordinates, across the antimeridian when that is shorter.
///
/// The arc is found by the largest gap between the sorted longitudes: the
/// arc is everything but that gap, so points at 179.9° and −179.9° span
/// 0.2°, not 359.8°. O(n log n).
public struct GeoExtent: Hashable, Sendable {
    /// The southern and northern edges in degrees.
    public var south: Double, north: Double
    /// The arc runs east from `west` to `east`; `west > east` when it
    /// crosses the antimeridian.
    public var west: Double, east: Double

    /// The extent of `coordinates`; `nil` when there are none.
    public init?(covering coordinates: [Coordinate]) {
        guard let first = coordinates.first else { return nil }
        south = first.latitude
        north = first.latitude
        for coordinate in coordinates {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
        }
        let longitudes = coordinates.map { Geodesy.wrapLongitude($0.longitude) }.sorted()
        // The gap from the last longitude round to the first, then each inner gap.
        var gap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        west = longitudes[0]
        east = longitudes[longitudes.count - 1]
        for index in longitudes.indices.dropLast() where longitudes[index + 1] - longitudes[index] > gap {
            gap = longitudes[index + 1] - longitudes[index]
            west = longitudes[index + 1]
            east = longitudes[index]
        }
    }

    /// The width of the longitude arc in degrees, 0…360.
    public var longitudeSpan: Double { west <= east ? east - west : east + 360 - west }

    /// The middle of the band and of the arc.
    public var centre: Coordinate {
        Coordinate(latitude: (south + north) / 2, longitude: Geodesy.wrapLongitude(west + longitudeSpan / 2))
    }
}
