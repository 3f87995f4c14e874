import GeoCore
import Geofencing
import TestSupport
import Testing

/// `nearestRegions(to:count:)`, the query behind `--monitor-limit`, against
/// sorting every region by its distance.
@Suite("Nearest regions")
struct NearestRegionsTests {
    static let seed = SeededRandom.testSeed(default: 20_251_122)

    @Test("the grid's nearest regions are the brute force's, nearest first", arguments: GeofenceWorkload.Layout.allCases)
    func nearestMatchesSorting(kind: GeofenceWorkload.Layout) {
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed)
        let shapes = (0..<400).map { _ in workload.shape() }
        let detector = TransitionDetector(regions: shapes.enumerated().map { Region(id: "r\($0.offset)", shape: $0.element) })
        for query in 0..<200 {
            let point = workload.point(near: shapes)
            let count = [1, 5, 20, 400, 500][query % 5]
            // Every other query counts only the keys not divisible by 3.
            let included: (Int) -> Bool = query % 2 == 0 ? { _ in true } : { $0 % 3 != 0 }
            let expected = shapes.enumerated().filter { included($0.offset) }
                .map { (key: $0.offset, distance: max(0, $0.element.excess(at: point))) }
                .sorted { ($0.distance, $0.key) < ($1.distance, $1.key) }
                .prefix(count)
            let actual = detector.nearestRegions(to: point, count: count, where: included)
            #expect(actual.map(\.key) == expected.map(\.key), "seed \(Self.seed) point \(point) count \(count)")
            #expect(actual.map(\.distance) == expected.map(\.distance), "seed \(Self.seed)")
        }
    }

    @Test("no regions, no count or an invalid point give nothing")
    func edgeCases() {
        let empty = TransitionDetector(regions: [])
        #expect(empty.nearestRegions(to: gate, count: 3).isEmpty)
        let one = TransitionDetector(regions: [Region(id: "gate", shape: .circle(centre: gate, radius: 50))])
        #expect(one.nearestRegions(to: gate, count: 0).isEmpty)
        #expect(one.nearestRegions(to: Coordinate(latitude: 91, longitude: 0), count: 1).isEmpty)
        let far = one.nearestRegions(to: Coordinate(latitude: -52, longitude: -166), count: 5)
        #expect(far.map(\.key) == [0], "the search widens to the whole earth")
    }
}
