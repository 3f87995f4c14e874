import GeoCore
import Geofencing

/// Seeded regions and random-walk positions around 52.52 N 13.40 E.
public struct GeofenceWorkload {
    /// The box regions and walks lie in.
    public enum Box: String, CaseIterable, Sendable {
        case city, country
    }

    private var random: SplitMix64
    private let south: Double, north: Double, west: Double, east: Double

    /// A workload in `box` whose randomness starts from `seed`.
    public init(box: Box, seed: UInt64) {
        random = SplitMix64(seed: seed)
        let half = box == .city ? 15_000.0 : 400_000.0
        let dLat = half / Geodesy.metresPerDegree
        let dLon = dLat / 0.608_5  // cos 52.52°
        south = 52.52 - dLat
        north = 52.52 + dLat
        west = 13.40 - dLon
        east = 13.40 + dLon
    }

    /// A uniform value in low..<high.
    public mutating func uniform(_ low: Double, _ high: Double) -> Double { random.uniform(low, high) }

    /// Circles uniform in the box, radius 50–500 m.
    public mutating func regions(count: Int) -> [Shape] {
        (0..<count).map { _ in
            .circle(centre: Coordinate(latitude: uniform(south, north), longitude: uniform(west, east)),
                    radius: uniform(50, 500))
        }
    }

    /// A 1 Hz walk of 8–12 m steps that turns gently and stays in the box.
    public mutating func walk(count: Int) -> [Coordinate] {
        var point = Coordinate(latitude: uniform(south, north), longitude: uniform(west, east))
        var bearing = uniform(0, 360)
        var points: [Coordinate] = []
        for _ in 0..<count {
            points.append(point)
            bearing += uniform(-15, 15)
            var next = Geodesy.destination(from: point, bearing: bearing, metres: uniform(8, 12))
            if next.latitude < south || next.latitude > north || next.longitude < west || next.longitude > east {
                bearing += 180
                next = point
            }
            point = next
        }
        return points
    }
}
