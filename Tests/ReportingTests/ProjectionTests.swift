import GeoCore
import Reporting
import TestSupport
import Testing

@Suite struct ProjectionTests {
    /// Pairs of points within 10 km of a centre at latitudes up to 60°:
    /// the distance on the plane is the great-circle distance within 1 %.
    @Test func metresAreTrueAtCityScale() {
        let seed = SeededRandom.testSeed(default: 13)
        print("ProjectionTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let centre = Coordinate(latitude: random.uniform(-60, 60), longitude: random.uniform(-180, 180))
            let projection = LocalProjection(centre: centre)
            func near() -> Coordinate {
                Geodesy.destination(from: centre, bearing: random.uniform(0, 360), metres: random.uniform(0, 10_000))
            }
            let a = near(), b = near()
            let (p, q) = (projection.project(a), projection.project(b))
            let plane = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
            let sphere = Geodesy.distance(a, b)
            guard sphere > 100 else { continue }
            #expect(abs(plane - sphere) / sphere < 0.01, "\(a) → \(b): \(plane) m on the plane, \(sphere) m")
        }
    }

    @Test func aCircleAtTheCentreIsRoundAndNorthIsUp() {
        let projection = LocalProjection(centre: Coordinate(latitude: 52.52, longitude: 13.40))
        let (rx, ry) = projection.ellipse(centre: projection.centre, radius: 150)
        #expect(abs(rx - 150) < 1e-9 && abs(ry - 150) < 1e-9)
        let north = projection.project(Coordinate(latitude: 52.53, longitude: 13.40))
        #expect(abs(north.x) < 1e-9 && abs(north.y - 0.01 * Geodesy.metresPerDegree) < 1e-6)
    }

    /// A drive from 179.95° E to 179.95° W crosses the antimeridian: the
    /// map spans 0.1° of longitude, not 359.9°, and the track is drawn as
    /// a short line across the middle, not across the whole world.
    @Test func aTrackAcrossTheAntimeridianStaysInOnePiece() throws {
        let track = stride(from: 0.0, through: 10, by: 1).map { step in
            Coordinate(latitude: -16.8, longitude: Geodesy.wrapLongitude(179.95 + step * 0.01))
        }
        let extent = try #require(GeoExtent(covering: track))
        #expect(abs(extent.longitudeSpan - 0.1) < 1e-9)
        #expect(extent.west > extent.east)
        #expect(abs(abs(extent.centre.longitude) - 180) < 1e-9)
        let frame = MapFrame(covering: track, width: 800, heights: 200...600, margin: 20)
        let pixels = track.map(frame.pixel)
        for (a, b) in zip(pixels, pixels.dropFirst()) {
            #expect(b.x > a.x && b.x - a.x < 100, "\(a) → \(b)")
        }
        #expect(pixels.allSatisfy { (0...800).contains($0.x) })
        // 0.1° at 16.8° S is 10.6 km: the frame's scale shows it on 760 pixels.
        #expect(abs(frame.pixelsPerMetre * 0.1 * Geodesy.metresPerDegree * cosine(-16.8) - 760) < 1)
    }

    @Test func theExtentTakesTheShorterWayRound() throws {
        let points = [10.0, 20, -170].map { Coordinate(latitude: 0, longitude: $0) }
        let extent = try #require(GeoExtent(covering: points))
        #expect(extent.west == 10 && extent.east == -170 && extent.longitudeSpan == 180)
        let plain = try #require(GeoExtent(covering: [10.0, 20, 30].map { Coordinate(latitude: 0, longitude: $0) }))
        #expect(plain.west == 10 && plain.east == 30)
    }

    private func cosine(_ degrees: Double) -> Double {
        let projection = LocalProjection(centre: Coordinate(latitude: degrees, longitude: 0))
        return projection.metresPerDegreeEast / Geodesy.metresPerDegree
    }
}
