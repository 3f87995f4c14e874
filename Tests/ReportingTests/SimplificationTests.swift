import GeoCore
import Reporting
import TestSupport
import Testing

@Suite struct SimplificationTests {
    /// The distance from `point` to the polyline `line`.
    func distance(_ point: PlanePoint, to line: [PlanePoint]) -> Double {
        guard line.count > 1 else { return hypot(point, line[0]) }
        return zip(line, line.dropFirst()).map { a, b -> Double in
            let dx = b.x - a.x, dy = b.y - a.y
            let length = dx * dx + dy * dy
            let t = length == 0 ? 0 : min(1, max(0, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length))
            return hypot(point, PlanePoint(x: a.x + t * dx, y: a.y + t * dy))
        }.min()!
    }

    func hypot(_ a: PlanePoint, _ b: PlanePoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    @Test func everyPointStaysWithinTwiceTheToleranceAndTheEndsAreKept() {
        let seed = SeededRandom.testSeed(default: 7)
        print("SimplificationTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            var point = PlanePoint(x: 0, y: 0)
            let line = (0..<Int(random.uniform(3, 400))).map { _ in
                point = PlanePoint(x: point.x + random.uniform(-3, 3), y: point.y + random.uniform(-3, 3))
                return point
            }
            let tolerance = random.uniform(0.1, 4)
            let simple = Simplification.simplify(line, tolerance: tolerance)
            #expect(simple.first == line.first && simple.last == line.last)
            #expect(simple.count <= line.count)
            for point in line { #expect(distance(point, to: simple) <= 2 * tolerance + 1e-9) }
        }
    }

    @Test func aStraightLineIsItsTwoEnds() {
        let line = (0...100).map { PlanePoint(x: Double($0), y: 2 * Double($0)) }
        #expect(Simplification.simplify(line, tolerance: 0.5) == [line[0], line[100]])
    }

    /// A long random walk through a collector with a small capacity: memory
    /// stays within it, every fix lies within 2 × tolerance of a kept point,
    /// and each segment keeps its first and last fix.
    @Test func theCollectorStaysWithinItsCapacity() {
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 11))
        var collector = TrackCollector(capacity: 500, tolerance: 1)
        var walk: [Coordinate] = []
        var position = Coordinate(latitude: 45.27, longitude: 13.72)
        for second in 0..<20_000 {
            position = Geodesy.destination(from: position, bearing: random.uniform(0, 360), metres: random.uniform(0, 8))
            walk.append(position)
            collector.add(position, device: "walker", time: Double(second))
        }
        let tracks = collector.result
        #expect(tracks.count == 1 && tracks[0].received == 20_000 && tracks[0].segments.count == 1)
        let kept = tracks[0].segments[0]
        #expect(kept.count <= 501)
        #expect(collector.tolerance > 1)
        #expect(kept.first == walk.first && kept.last == walk.last)
        for point in walk.prefix(2000) {
            let nearest = kept.map { Geodesy.distance($0, point) }.min()!
            #expect(nearest <= 2 * collector.tolerance * 1.01)
        }
    }

    @Test func pausesSplitTracksAndDevicesAreApart() {
        var collector = TrackCollector()
        let a = Coordinate(latitude: 45.0, longitude: 13.0), b = Coordinate(latitude: 45.001, longitude: 13.0)
        collector.add(a, device: "car", time: 0)
        collector.add(b, device: "car", time: 10)
        collector.add(a, device: "bike", time: 10)
        collector.add(a, device: "car", time: 10 + 3600)
        let tracks = collector.result
        #expect(tracks.map(\.device) == ["car", "bike"])
        #expect(tracks[0].segments == [[a, b], [a]])
        #expect(tracks[1].segments == [[a]])
    }
}
