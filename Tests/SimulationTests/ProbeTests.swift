import GeoCore
import Simulation
import Testing

@Suite struct ProbeTests {
    let start = instant(1_740_823_200)  // 2025-03-01T10:00:00Z
    let sigma = 4.0
    let regions = [
        Probe.Region(id: "pharmacy", centre: Coordinate(latitude: 52.5163, longitude: 13.3777), radius: 150),
        Probe.Region(id: "kiosk", centre: Coordinate(latitude: 52.5300, longitude: 13.3600), radius: 6),
        Probe.Region(id: "park", centre: Coordinate(latitude: 52.5000, longitude: 13.3500), radius: 400),
    ]

    @Test func eachPassComesAsCloseAsItsCaseSays() throws {
        let probe = try Probe(regions: regions, sigma: sigma, speed: 13.9, from: start)
        #expect(probe.segments.count == 12)
        for segment in probe.segments where segment.kind != .parkOnLine {
            let region = regions.first { $0.id == segment.regionID }!
            let expected: Double
            switch segment.kind {
            case .passInside: expected = max(0, region.radius - 2 * sigma)
            case .passOnLine: expected = region.radius
            default: expected = region.radius + 2 * sigma
            }
            #expect(abs(segment.offset - (expected - region.radius)) < 1e-9)
            let (from, to) = try leg(of: probe.path, from: segment.start, to: segment.end)
            let closest = closestApproach(from: from, to: to, centre: region.centre)
            #expect(abs(closest - expected) < 0.01, "\(segment.regionID) \(segment.kind.rawValue): \(closest) m")
            #expect(Geodesy.distance(from, region.centre) > region.radius + 2 * sigma, "the pass starts outside")
            #expect(Geodesy.distance(to, region.centre) > region.radius + 2 * sigma, "and ends outside")
        }
    }

    @Test func aRegionSmallerThanTwoSigmaIsPassedThroughItsCentre() throws {
        let kiosk = try Probe(regions: [regions[1]], sigma: sigma, speed: 13.9, from: start)
        let inside = try #require(kiosk.segments.first { $0.kind == .passInside })
        #expect(inside.offset == -6)
        let (from, to) = try leg(of: kiosk.path, from: inside.start, to: inside.end)
        #expect(closestApproach(from: from, to: to, centre: regions[1].centre) < 0.01)
    }

    @Test func theParkStaysOnTheLineForItsTime() throws {
        let probe = try Probe(regions: regions, sigma: sigma, speed: 1.4, park: 300, from: start)
        let parks = probe.segments.filter { $0.kind == .parkOnLine }
        #expect(parks.map(\.regionID) == regions.map(\.id))
        var cursor = TimedPath.Cursor(probe.path)
        for (park, region) in zip(parks, regions) {
            #expect(seconds(from: park.start, to: park.end) == 300)
            for second in stride(from: 0.0, through: 300, by: 30) {
                let position = cursor.position(at: park.start.adding(seconds: second))
                #expect(abs(Geodesy.distance(position, region.centre) - region.radius) < 0.01)
            }
        }
    }

    @Test func onlyTheCasesComeIntoARegion() throws {
        let probe = try Probe(regions: regions, sigma: sigma, speed: 13.9, from: start)
        #expect(probe.segments.map(\.kind) == Array(repeating: Probe.Kind.allCases, count: 3).flatMap { $0 })
        #expect(zip(probe.segments, probe.segments.dropFirst()).allSatisfy { $0.end <= $1.start }, "in path order")
        let touching: Set<Probe.Kind> = [.passInside, .passOnLine, .parkOnLine]
        var cursor = TimedPath.Cursor(probe.path)
        var time = probe.path.start
        while time <= probe.path.end {
            let position = cursor.position(at: time)
            for region in regions where Geodesy.distance(position, region.centre) < region.radius - 0.01 {
                let inCase = probe.segments.contains {
                    $0.regionID == region.id && touching.contains($0.kind) && $0.start <= time && time <= $0.end
                }
                #expect(inCase, "inside \(region.id) at \(seconds(from: probe.path.start, to: time)) s, outside its cases")
            }
            time = time.adding(seconds: 1)
        }
    }

    @Test func badProbesAreRefusedWithTheParameter() {
        #expect(throws: SimulationError.invalidValue("regions", "must name at least one circle")) {
            try Probe(regions: [], sigma: 1, speed: 1, from: start)
        }
        #expect(throws: SimulationError.invalidValue("radius", "of region kiosk must be a positive number of metres")) {
            try Probe(regions: [Probe.Region(id: "kiosk", centre: regions[1].centre, radius: 0)], sigma: 1, speed: 1, from: start)
        }
        #expect(throws: SimulationError.invalidValue("sigma", "must be 0 or more metres")) {
            try Probe(regions: regions, sigma: -1, speed: 1, from: start)
        }
    }

    /// A crawl, a park of centuries, or a start days before 2262: refused,
    /// where the course's times overflowed and trapped.
    @Test func aProbePastTheLatestTimeIsRefused() throws {
        for speed in [1e-300, 1e-9] {
            #expect(throws: SimulationError.pastLatestTime) { try Probe(regions: regions, sigma: 1, speed: speed, from: start) }
        }
        #expect(throws: SimulationError.pastLatestTime) {
            try Probe(regions: regions, sigma: 1, speed: 1.4, park: 1e300, from: start)
        }
        let late = TimedPath.latestEnd.adding(seconds: -600)
        #expect(throws: SimulationError.pastLatestTime) { try Probe(regions: regions, sigma: 1, speed: 1.4, from: late) }
        let earlier = TimedPath.latestEnd.adding(seconds: -30 * 86_400)
        #expect(try Probe(regions: regions, sigma: 1, speed: 1.4, from: earlier).path.end <= TimedPath.latestEnd)
    }

    /// The straight leg of `path` that runs from `start` to `end`.
    private func leg(of path: TimedPath, from start: Timestamp, to end: Timestamp) throws -> (Coordinate, Coordinate) {
        let index = try #require(path.vertices.firstIndex { $0.time == start })
        let next = path.vertices[index + 1]
        #expect(next.time == end, "a pass is one leg")
        return (path.vertices[index].coordinate, next.coordinate)
    }

    /// The least distance from `centre` to the great-circle leg, by golden-section search on the fraction.
    private func closestApproach(from a: Coordinate, to b: Coordinate, centre: Coordinate) -> Double {
        func distance(_ fraction: Double) -> Double {
            Geodesy.distance(Geodesy.intermediate(from: a, to: b, fraction: fraction), centre)
        }
        var low = 0.0
        var high = 1.0
        while high - low > 1e-12 {
            let left = low + (high - low) * 0.382
            let right = high - (high - low) * 0.382
            if distance(left) < distance(right) { high = right } else { low = left }
        }
        return distance((low + high) / 2)
    }
}
