import GeoCore
import Testing

@Suite("Great-circle geometry")
struct DistanceTests {
    @Test("one degree of latitude is R·π/180")
    func oneDegree() {
        let d = Geodesy.distance(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0))
        #expect(abs(d - 111_195.08) < 0.01)
    }

    @Test("Brandenburg Gate to the Reichstag is about 340 m")
    func berlin() {
        let gate = Coordinate(latitude: 52.516275, longitude: 13.377704)
        let reichstag = Coordinate(latitude: 52.518620, longitude: 13.376198)
        let d = Geodesy.distance(gate, reichstag)
        #expect(d > 270 && d < 290)
    }

    @Test("across the antimeridian the short way")
    func antimeridian() {
        let d = Geodesy.distance(Coordinate(latitude: 0, longitude: 179.9), Coordinate(latitude: 0, longitude: -179.9))
        #expect(abs(d - 0.2 * Geodesy.metresPerDegree) < 0.01)
    }

    @Test("destination then distance gives the distance back")
    func destination() {
        let start = Coordinate(latitude: 52.52, longitude: 13.40)
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            let end = Geodesy.destination(from: start, bearing: bearing, metres: 1234)
            #expect(abs(Geodesy.distance(start, end) - 1234) < 1e-6)
        }
    }

    @Test("bounding box around a circle holds the circle, also across ±180°")
    func boundingBox() {
        for centre in [
            Coordinate(latitude: 10, longitude: 179.999), Coordinate(latitude: -60, longitude: -179.99),
            Coordinate(latitude: 89.99, longitude: 0),
        ] {
            let box = BoundingBox.around(centre, radius: 5000)
            for bearing in stride(from: 0.0, to: 360, by: 10) {
                let edge = Geodesy.destination(from: centre, bearing: bearing, metres: 4999)
                #expect(box.contains(edge), "\(edge) outside \(box)")
            }
        }
    }
}
