import Foundation
import GeoCore
import Geofencing
import TestSupport

/// Seeded random region sets and query points for the differential tests.
struct Workload {
    /// The kinds of region sets the grid must get right.
    enum Kind: String, CaseIterable, Sendable {
        case uniform, clustered, antimeridian, polar, mixedSizes
    }

    var random: SeededRandom
    let kind: Kind

    init(kind: Kind, seed: UInt64) {
        self.kind = kind
        random = SeededRandom(seed: seed &+ UInt64(Kind.allCases.firstIndex(of: kind)!) &* 0x9E37)
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    /// A region centre for this workload.
    mutating func centre() -> Coordinate {
        switch kind {
        case .uniform:
            return Coordinate(latitude: uniform(-60...60), longitude: uniform(-180...180))
        case .clustered:
            let cluster = Int.random(in: 0..<4, using: &random)
            let base = [(52.52, 13.40), (-33.9, 151.2), (40.7, -74.0), (1.3, 103.8)][cluster]
            return Coordinate(latitude: base.0 + uniform(-0.05...0.05), longitude: base.1 + uniform(-0.05...0.05))
        case .antimeridian:
            return Coordinate(
                latitude: uniform(-20...20), longitude: Geodesy.wrapLongitude(180 + uniform(-0.5...0.5)))
        case .polar:
            let north = Bool.random(using: &random)
            let lat = uniform(88.5...90)
            return Coordinate(latitude: north ? lat : -lat, longitude: uniform(-180...180))
        case .mixedSizes:
            return Coordinate(latitude: uniform(47...48), longitude: uniform(7...8.5))
        }
    }

    /// A radius in metres for this workload.
    mutating func radius() -> Double {
        switch kind {
        case .mixedSizes:
            return pow(10, uniform(0...4.7))  // 1 m … 50 km
        case .polar:
            return uniform(10...40_000)
        case .uniform:
            return uniform(1_000...300_000)
        default:
            return uniform(20...3_000)
        }
    }

    /// A random region: mostly circles, some polygons (with holes).
    mutating func shape() -> Shape {
        let centre = self.centre()
        let radius = self.radius()
        if kind == .polar || Int.random(in: 0..<8, using: &random) != 0 {
            return .circle(centre: centre, radius: radius)
        }
        return polygon(around: centre, radius: radius)
    }

    /// A star-shaped polygon around `centre`, sometimes with a hole.
    mutating func polygon(around centre: Coordinate, radius: Double) -> Shape {
        let corners = Int.random(in: 3...9, using: &random)
        var outer: [Coordinate] = []
        for corner in 0..<corners {
            let bearing = Double(corner) * 360 / Double(corners) + uniform(0...10)
            outer.append(Geodesy.destination(from: centre, bearing: bearing, metres: radius * uniform(0.5...1)))
        }
        outer.append(outer[0])
        var rings = [outer]
        if Bool.random(using: &random) {
            var hole: [Coordinate] = (0..<4).map {
                Geodesy.destination(from: centre, bearing: Double($0) * 90 + 45, metres: radius * 0.2)
            }
            hole.append(hole[0])
            rings.append(hole)
        }
        return .area(try! Area(polygons: [rings]))
    }

    /// A query point: half near a region's boundary, half anywhere nearby.
    mutating func point(near shapes: [Shape]) -> Coordinate {
        if !shapes.isEmpty, Bool.random(using: &random) {
            let shape = shapes.randomElement(using: &random)!
            switch shape {
            case .circle(let circle):
                let scale = [1.0, 1 - 1e-9, 1 + 1e-9, uniform(0...1.2)].randomElement(using: &random)!
                return Geodesy.destination(
                    from: circle.centre, bearing: uniform(0...360), metres: circle.radius * scale)
            case .area(let area):
                let vertex = area.polygons[0][0].randomElement(using: &random)!
                return Geodesy.destination(from: vertex, bearing: uniform(0...360), metres: uniform(0...50))
            }
        }
        let c = centre()
        return Geodesy.destination(from: c, bearing: uniform(0...360), metres: uniform(0...5_000))
    }
}
