import GeoCore
import Simulation
import Testing

@Suite struct TimedPathTests {
    let start = Timestamp(nanoseconds: 1_740_823_200 * 1_000_000_000)
    let berlin = Coordinate(latitude: 52.52, longitude: 13.40)

    @Test func aRouteIsFollowedAtItsSpeedWithStopsAtInteriorVertices() throws {
        let east = Geodesy.destination(from: berlin, bearing: 90, metres: 1_400)
        let north = Geodesy.destination(from: east, bearing: 0, metres: 700)
        let path = try TimedPath.following([berlin, east, north], speed: 1.4, stop: 60, from: start)
        #expect(path.vertices.count == 4, "a stop doubles the interior vertex")
        #expect(abs(path.end.secondsSince1970 - start.secondsSince1970 - (1_000 + 60 + 500)) < 1e-6)
        #expect(abs(path.length - 2_100) < 0.01)
        var cursor = TimedPath.Cursor(path)
        let halfway = cursor.position(at: start.adding(seconds: 500))
        #expect(abs(Geodesy.distance(halfway, berlin) - 700) < 0.01)
        #expect(Geodesy.distance(cursor.position(at: start.adding(seconds: 1_030)), east) < 1e-6, "parked during the stop")
        #expect(Geodesy.distance(cursor.position(at: start.adding(seconds: 10_000)), north) < 1e-6, "clamped after the end")
    }

    @Test func legsFollowTheGreatCircleAcrossTheAntimeridian() throws {
        let west = Coordinate(latitude: 10, longitude: 179.5)
        let east = Coordinate(latitude: 10, longitude: -179.5)
        let path = try TimedPath.following([west, east], speed: 100, from: start)
        var cursor = TimedPath.Cursor(path)
        let middle = cursor.position(at: start.adding(seconds: (path.end.secondsSince1970 - start.secondsSince1970) / 2))
        #expect(abs(abs(middle.longitude) - 180) < 1e-6, "the short way, over the antimeridian")
        #expect(middle.latitude > 10, "a great circle bulges towards the pole")
        let quarter = Geodesy.intermediate(from: west, to: east, fraction: 0.25)
        #expect(abs(Geodesy.distance(west, quarter) - Geodesy.distance(west, east) / 4) < 0.01)
    }

    @Test func badPathsAreRefusedWithTheReason() {
        #expect(throws: SimulationError.tooFewPoints(1)) { try TimedPath.following([berlin], speed: 1, from: start) }
        #expect(throws: SimulationError.invalidValue("speed", "must be a positive number of metres per second")) {
            try TimedPath.following([berlin, berlin], speed: 0, from: start)
        }
        let later = TimedPath.Vertex(time: start.adding(seconds: 10), coordinate: berlin)
        let earlier = TimedPath.Vertex(time: start, coordinate: berlin)
        #expect(throws: SimulationError.timeGoesBack(index: 1)) { try TimedPath(vertices: [later, earlier]) }
    }

    @Test func aPathThatWouldEndPastTheLastTimeIsRefusedNotTrapped() throws {
        let tenKilometres = [berlin, Geodesy.destination(from: berlin, bearing: 90, metres: 10_000)]
        let lastMinute = TimedPath.latestEnd.adding(seconds: -60)
        // 10 km at 1 m/s takes 10 000 s, past the end; at 1 km/s, 10 s.
        #expect(throws: SimulationError.pastLatestTime) { try TimedPath.following(tenKilometres, speed: 1, from: lastMinute) }
        #expect(try TimedPath.following(tenKilometres, speed: 1_000, from: lastMinute).end <= TimedPath.latestEnd)
        // A stop can carry it past too, and a speed near 0 from any start.
        #expect(throws: SimulationError.pastLatestTime) {
            try TimedPath.following(tenKilometres + [berlin], speed: 1_000, stop: 120, from: lastMinute)
        }
        #expect(throws: SimulationError.pastLatestTime) { try TimedPath.following(tenKilometres, speed: 1e-9, from: start) }
        #expect(SimulationError.pastLatestTime.description.contains("2262-04-10"))
        // From the first instant a time holds (1677), 10 km is a short walk.
        let first = Timestamp(nanoseconds: .min + 1_000_000_000)
        let walked = try TimedPath.following(tenKilometres, speed: 1, from: first)
        #expect(abs(walked.end.nanoseconds - first.adding(seconds: 10_000).nanoseconds) < 1_000_000)
    }
}
