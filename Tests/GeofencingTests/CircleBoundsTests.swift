import GeoCore
import TestSupport
import Testing

@testable import Geofencing

@Suite("A circle's distance decided from bounds, without trigonometry")
struct CircleBoundsTests {
    /// Random circles and points at distances near `radius × ratio`, on
    /// every latitude band and across the antimeridian.
    private static func cases(count: Int, seed: UInt64) -> [(Circle, Coordinate, metres: Double)] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let centre = Coordinate(
                latitude: Double.random(in: -85...85, using: &random),
                longitude: Bool.random(using: &random)
                    ? Double.random(in: 179.9...180, using: &random) : Double.random(in: -180...180, using: &random))
            let radius = [0.01, 1, 50, 300, 5_000, 40_000].randomElement(using: &random)!
            let circle = Circle(centre: centre, radius: radius)
            // Near the fence: within a few nanometres, a millimetre, or a tenth.
            let spread = [1e-12, 1e-9, 1e-6, 0.1, 1].randomElement(using: &random)!
            let distance = max(0, radius * (1 + Double.random(in: -spread...spread, using: &random)))
            let point = Geodesy.destination(
                from: centre, bearing: Double.random(in: 0..<360, using: &random), metres: distance)
            let metres = radius * (1 + Double.random(in: -spread...spread, using: &random))
            return (circle, point, metres)
        }
    }

    @Test("an answer always agrees with the haversine distance; clear cases get one")
    func agreesWithDistance() {
        let seed = SeededRandom.testSeed(default: 20_261_129)
        print("CircleBoundsTests seed \(seed)")
        var answered = 0
        var clear = 0
        for (circle, point, metres) in Self.cases(count: 200_000, seed: seed) {
            let distance = Geodesy.distance(circle.centre, point)
            let answer = circle.certainlyFarther(than: metres, from: point)
            if let answer {
                answered += 1
                #expect(answer == (distance > metres), "\(circle) \(point) \(metres): distance \(distance)")
            }
            let plain = abs(circle.centre.latitude) < 60 && abs(point.latitude) < 60 && distance < 20_000
            if plain, abs(distance - metres) > 1e-6 * metres + 1e-6 {
                clear += 1
                #expect(answer != nil, "\(circle) \(point) \(metres): distance \(distance) left undecided")
            }
        }
        #expect(clear > 50_000)
        #expect(answered >= clear)
    }

    @Test("the exit rule matches excess − accuracy > hysteresis for circles and areas")
    func exitRule() throws {
        let seed = SeededRandom.testSeed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        for (circle, point, _) in Self.cases(count: 50_000, seed: seed) {
            let accuracy = [0, 3.5, 25].randomElement(using: &random)!
            let hysteresis = [0, 10, 0.1 * circle.radius].randomElement(using: &random)!
            let shape = Shape.circle(circle)
            #expect(
                shape.isBeyond(point, accuracy: accuracy, hysteresis: hysteresis)
                    == (shape.excess(at: point) - accuracy > hysteresis))
        }
        let corners = [(0.0, 0.0), (0, 0.01), (0.01, 0.01), (0.01, 0), (0, 0)]
        let square = try Area(polygons: [[corners.map { Coordinate(latitude: $0.0, longitude: $0.1) }]])
        for longitude in stride(from: -0.01, through: 0.03, by: 0.0005) {
            let point = Coordinate(latitude: 0.005, longitude: longitude)
            let shape = Shape.area(square)
            #expect(shape.isBeyond(point, accuracy: 5, hysteresis: 10) == (shape.excess(at: point) - 5 > 10))
        }
    }
}
