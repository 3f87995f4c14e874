import Evaluation
import Foundation
import GeoCore
import Geofencing
import TestSupport
import Testing

/// The truth scanned point by point, a few thousand points at a time,
/// finds what the finder and the coverage find on the whole track.
@Suite struct TruthTrackScanTests {
    static let centre = Coordinate(latitude: 48.85, longitude: 2.35)
    /// 2025-01-01T00:00:00Z.
    static let start: Int64 = 1_735_689_600

    /// Circles of 15–120 m and a square park in a 1.2 km box, and a walk of
    /// `count` points among them: enough crossings on every stretch that
    /// some fall on the segments where the scan's stretches meet.
    static func walkAmongRegions(count: Int, seed: UInt64) throws -> (regions: [Region], track: [TruthPoint]) {
        var random = SeededRandom(seed: seed)
        func place(_ north: Double, _ east: Double) -> Coordinate {
            Geodesy.destination(from: Geodesy.destination(from: centre, bearing: 0, metres: north), bearing: 90, metres: east)
        }
        var regions = (0..<40).map { index in
            Region(
                id: "c\(index)",
                shape: .circle(
                    centre: place(random.uniform(-600, 600), random.uniform(-600, 600)), radius: random.uniform(15, 120)))
        }
        let ring = [place(-150, -150), place(-150, 150), place(150, 150), place(150, -150), place(-150, -150)]
        regions.append(Region(id: "park", shape: .area(try Area(polygons: [[ring]]))))
        var point = centre
        var bearing = random.uniform(0, 360)
        var track: [TruthPoint] = []
        var second = start
        for _ in 0..<count {
            track.append(TruthPoint(time: Timestamp(nanoseconds: second * 1_000_000_000), coordinate: point))
            // Now and then two points at the same second: time order allows it.
            if random.uniform(0, 1) > 0.02 { second += 1 }
            bearing += random.uniform(-25, 25)
            if Geodesy.distance(point, centre) > 650 {
                // Back towards the centre.
                let east = (centre.longitude - point.longitude) * cos(point.latitude * .pi / 180)
                bearing = atan2(east, centre.latitude - point.latitude) * 180 / .pi
            }
            point = Geodesy.destination(from: point, bearing: bearing, metres: random.uniform(0, 6))
        }
        return (regions, track)
    }

    @Test func aTrackScannedPointByPointGivesTheEventsAndCoverageOfTheWholeTrack() throws {
        let seed = SeededRandom.testSeed(default: 20_261_206)
        print("TruthTrackScanTests seed \(seed) (REPEAT_SEED to replay)")
        let (regions, track) = try Self.walkAmongRegions(count: 30_000, seed: seed)
        let finder = TrueEventFinder(regions: regions)
        let whole = finder.events(along: track, device: "walker")
        var expectedCoverage = TruthCoverage()
        expectedCoverage.add(track)

        var scan = TruthTrackScan(device: "walker")
        var refused = 0
        for point in track where !scan.add(point, finder: finder) { refused += 1 }
        #expect(refused == 0)
        var coverage = TruthCoverage()
        coverage.add(scan.coverage)
        let scanned = scan.finish(finder: finder)

        #expect(whole.count > 200, "the walk crosses fences on every stretch")
        #expect(scanned.count == whole.count)
        let firstDifference = (0..<min(scanned.count, whole.count)).first { scanned[$0] != whole[$0] }
        #expect(firstDifference == nil, "the first event that differs")
        #expect(coverage == expectedCoverage)
        #expect(scan.count == track.count)
    }

    @Test func aPointEarlierThanTheLastIsRefusedAndLeavesTheScanAsItWas() throws {
        let (regions, track) = try Self.walkAmongRegions(count: 500, seed: 7)
        let finder = TrueEventFinder(regions: regions)
        var scan = TruthTrackScan(device: nil)
        for point in track { _ = scan.add(point, finder: finder) }
        let earlier = TruthPoint(time: track[100].time, coordinate: track[400].coordinate)
        let added = scan.add(earlier, finder: finder)
        #expect(!added)
        #expect(scan.count == track.count)
        #expect(scan.finish(finder: finder) == finder.events(along: track, device: nil))
    }
}
