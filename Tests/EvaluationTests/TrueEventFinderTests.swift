import Evaluation
import GeoCore
import Geofencing
import TestSupport
import Testing

@Suite struct TrueEventFinderTests {
    let start: Int64 = 1_740_823_200
    let centre = Coordinate(latitude: 52.52, longitude: 13.40)

    /// A straight walk east at `speed`, one truth point a second, passing
    /// `offset` metres north of the centre; closest approach at `closest` s.
    func pass(offset: Double, speed: Double, seconds: Int, closest: Double) -> [TruthPoint] {
        let line = Geodesy.destination(from: centre, bearing: 0, metres: offset)
        return (0...seconds).map { second in
            let along = (Double(second) - closest) * speed
            let point = Geodesy.destination(from: line, bearing: along >= 0 ? 90 : 270, metres: abs(along))
            return TruthPoint(time: Timestamp(nanoseconds: (start + Int64(second)) * 1_000_000_000), coordinate: point)
        }
    }

    func seconds(_ event: ScoredEvent) -> Double { Double(event.time.nanoseconds) / 1e9 - Double(start) }

    @Test(arguments: [0.0, 30.0, 80.0, 99.0])
    func aStraightPassEntersAndExitsAtTheAnalyticTimes(offset: Double) {
        let radius = 100.0
        let speed = 1.4
        let region = Region(id: "shop", shape: .circle(centre: centre, radius: radius))
        let events = TrueEventFinder(regions: [region]).events(
            along: pass(offset: offset, speed: speed, seconds: 400, closest: 200), device: "d")
        let half = (radius * radius - offset * offset).squareRoot() / speed
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(abs(seconds(events[0]) - (200 - half)) < 0.05, "entry at \(seconds(events[0])), expected \(200 - half)")
        #expect(abs(seconds(events[1]) - (200 + half)) < 0.05, "exit at \(seconds(events[1])), expected \(200 + half)")
        #expect(events.allSatisfy { $0.region == "shop" && $0.device == "d" })
    }

    @Test func aSegmentThatJumpsACircleGivesBothEvents() {
        let region = Region(id: "kiosk", shape: .circle(centre: centre, radius: 50))
        let west = Geodesy.destination(from: centre, bearing: 270, metres: 500)
        let east = Geodesy.destination(from: centre, bearing: 90, metres: 500)
        let truth = [west, east].enumerated().map { index, point in
            TruthPoint(time: Timestamp(nanoseconds: (start + Int64(index) * 100) * 1_000_000_000), coordinate: point)
        }
        let events = TrueEventFinder(regions: [region]).events(along: truth, device: nil)
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(abs(seconds(events[0]) - 45) < 0.05)
        #expect(abs(seconds(events[1]) - 55) < 0.05)
    }

    @Test func aTruthThatStartsInsideHasNoEntry() {
        let region = Region(id: "home", shape: .circle(centre: centre, radius: 100))
        let events = TrueEventFinder(regions: [region]).events(
            along: pass(offset: 0, speed: 1.4, seconds: 200, closest: 0), device: nil)
        #expect(events.map(\.kind) == [.exit])
        #expect(abs(seconds(events[0]) - 100 / 1.4) < 0.05)
    }

    @Test func aPolygonIsEnteredWhereTheSegmentCrossesItsBoundary() throws {
        // A 200 m square around the centre: the walk 30 m north of the
        // centre crosses its west edge 100 m before the centre's meridian.
        func corner(_ north: Double, _ east: Double) -> Coordinate {
            Geodesy.destination(from: Geodesy.destination(from: centre, bearing: 0, metres: north), bearing: 90, metres: east)
        }
        let ring = [corner(-100, -100), corner(-100, 100), corner(100, 100), corner(100, -100), corner(-100, -100)]
        let area = try Area(polygons: [[ring]])
        let events = TrueEventFinder(regions: [Region(id: "park", shape: .area(area))])
            .events(along: pass(offset: 30, speed: 2, seconds: 200, closest: 100), device: nil)
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(abs(seconds(events[0]) - 50) < 0.2)
        #expect(abs(seconds(events[1]) - 150) < 0.2)
    }

    /// The finder decides containment on a flat plane where that is safe;
    /// against the haversine everywhere, on random walks past circles of
    /// 5 m to 5 km at every latitude and across the antimeridian, it finds
    /// the same events at the same millisecond.
    @Test func theFlatShortcutFindsWhatTheHaversineFinds() throws {
        let seed = SeededRandom.testSeed(default: 20_261_123)
        print("TrueEventFinderTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        func uniform(_ low: Double, _ high: Double) -> Double { random.uniform(low, high) }
        for trial in 0..<60 {
            let latitude = trial % 10 == 0 ? uniform(-89, 89) : uniform(-80, 80)
            let centre = Coordinate(latitude: latitude, longitude: trial % 7 == 0 ? 179.999 : uniform(-180, 180))
            let radius = [5.0, 40, 300, 2_000, 5_000, 8_000][trial % 6]
            let region = Region(id: "r", shape: .circle(centre: centre, radius: radius))
            // A wandering walk that starts near the fence, one point a second.
            var point = Geodesy.destination(from: centre, bearing: uniform(0, 360), metres: radius * uniform(0.5, 1.5))
            var bearing = uniform(0, 360)
            let speed = radius / 40
            var truth: [TruthPoint] = []
            for second in 0..<400 {
                truth.append(TruthPoint(time: Timestamp(nanoseconds: (start + Int64(second)) * 1_000_000_000), coordinate: point))
                bearing += uniform(-20, 20)
                point = Geodesy.destination(from: point, bearing: bearing, metres: speed)
            }
            let found = TrueEventFinder(regions: [region]).events(along: truth, device: nil)
            let expected = Self.referenceEvents(truth, region)
            #expect(found.map(\.kind) == expected.map(\.kind), "trial \(trial): \(centre) r \(radius)")
            for (a, b) in zip(found, expected) {
                #expect(abs(a.time.nanoseconds - b.nanoseconds) <= 1_000_000, "trial \(trial)")
            }
        }
    }

    /// The events by the haversine alone: each segment's ends, the closest
    /// approach between two outside ends, bisection to a microsecond.
    static func referenceEvents(_ truth: [TruthPoint], _ region: Region) -> [(kind: ScoredEvent.Kind, nanoseconds: Int64)] {
        let shape = region.shape
        var events: [(ScoredEvent.Kind, Int64)] = []
        for (a, b) in zip(truth, truth.dropFirst()) {
            func at(_ fraction: Double) -> Coordinate { interpolate(from: a.coordinate, to: b.coordinate, fraction: fraction) }
            func edge(_ low: Double, _ high: Double, insideAtLow: Bool) -> Int64 {
                var low = low
                var high = high
                for _ in 0..<30 {
                    let middle = (low + high) / 2
                    if shape.contains(at(middle)) == insideAtLow { low = middle } else { high = middle }
                }
                let fraction = insideAtLow ? low : high
                return a.time.nanoseconds + Int64(Double(b.time.nanoseconds - a.time.nanoseconds) * fraction)
            }
            switch (shape.contains(a.coordinate), shape.contains(b.coordinate)) {
            case (false, true): events.append((.enter, edge(0, 1, insideAtLow: false)))
            case (true, false): events.append((.exit, edge(0, 1, insideAtLow: true)))
            case (false, false):
                guard let middle = shape.crossing(from: a.coordinate, to: b.coordinate), shape.contains(at(middle)) else {
                    continue
                }
                events.append((.enter, edge(0, middle, insideAtLow: false)))
                events.append((.exit, edge(middle, 1, insideAtLow: true)))
            case (true, true): continue
            }
        }
        return events
    }
}
