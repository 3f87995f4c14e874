import Foundation
import GeoCore
import Geofencing

/// A seeded workload shaped like ../shared/bench/gen_workload.py: regions
/// uniform in a box around 52.52 N 13.40 E with radius 50–500 m, and ten
/// 1 Hz random-walk tracks (steps of 8–12 m, heading change N(0, 0.25 rad)
/// per step) that turn back at the box edges.
struct BenchWorkload {
    private var random: SplitMix64
    let south: Double
    let north: Double
    let west: Double
    let east: Double

    init(box: GeofenceBenchOptions.Box, seed: UInt64) {
        random = SplitMix64(seed: seed)
        let half = box == .city ? 15_000.0 : 400_000.0
        let dLat = half / Geodesy.metresPerDegree
        let dLon = dLat / Self.cosine(52.52)
        south = 52.52 - dLat
        north = 52.52 + dLat
        west = 13.40 - dLon
        east = 13.40 + dLon
    }

    private mutating func uniform(_ low: Double, _ high: Double) -> Double { random.uniform(low, high) }

    /// A normal deviate (Box–Muller).
    private mutating func normal(_ sigma: Double) -> Double {
        let u = max(uniform(0, 1), 1e-300)
        let v = uniform(0, 1)
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    private static func cosine(_ degrees: Double) -> Double { cos(degrees * .pi / 180) }

    /// `count` circles uniform in the box.
    mutating func regions(count: Int) -> [Shape] {
        (0..<count).map { _ in
            let lat = uniform(south, north)
            let lon = uniform(west, east)
            return .circle(centre: Coordinate(latitude: lat, longitude: lon), radius: uniform(50, 500))
        }
    }

    /// `count` positions in ten random-walk tracks.
    mutating func positions(count: Int) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        let tracks = 10
        for track in 0..<tracks {
            let length = count / tracks + (track < count % tracks ? 1 : 0)
            var lat = uniform(south, north)
            var lon = uniform(west, east)
            var heading = uniform(0, 2 * .pi)
            for step in 0..<length {
                if step > 0 {
                    heading += normal(0.25)
                    let metres = uniform(8, 12)
                    lat += metres * cos(heading) / Geodesy.metresPerDegree
                    lon += metres * sin(heading) / (Geodesy.metresPerDegree * Self.cosine(lat))
                    if lat < south || lat > north || lon < west || lon > east {
                        heading += .pi
                        lat = min(max(lat, south), north)
                        lon = min(max(lon, west), east)
                    }
                }
                points.append(Coordinate(latitude: lat, longitude: lon))
            }
        }
        return points
    }
}
