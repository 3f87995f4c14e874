import Foundation
import GeoCore
import Geofencing
import Testing

/// Rings around a pole, written as RFC 7946 writes Antarctica, and rings
/// across the antimeridian that must stay narrow.
@Suite struct AreaPoleTests {
    func ring(_ positions: [(lon: Double, lat: Double)]) -> [Coordinate] {
        positions.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
    }

    /// North of 89°: the edges from −180° to +180° on 89° and on 90° run
    /// the whole way round.
    var northCap: [Coordinate] { ring([(-180, 89), (180, 89), (180, 90), (-180, 90), (-180, 89)]) }

    @Test func aCapClosedAlongTheAntimeridianHoldsEveryLongitudeNorthOfItsParallel() throws {
        let cap = try Area(polygons: [[northCap]])
        for longitude in [-180.0, -179.9, -90, 0, 45.5, 179.9, 180] {
            #expect(cap.contains(Coordinate(latitude: 89.5, longitude: longitude)), "\(longitude)")
            #expect(!cap.contains(Coordinate(latitude: 88.9, longitude: longitude)), "\(longitude)")
        }
        #expect(cap.boundingBox.west == -180 && cap.boundingBox.east == 180)
        #expect(cap.boundingBox.south < 89 && cap.boundingBox.north == 90)
        // The cap's surface: 2πR²(1 − cos 1°), within the flat sum's 1 %.
        let cap89 = 2 * Double.pi * 6_371_008.8 * 6_371_008.8 * (1 - cos(Double.pi / 180))
        #expect(abs(cap.equivalentRadius - (cap89 / .pi).squareRoot()) / (cap89 / .pi).squareRoot() < 0.01)
    }

    @Test func aWalkOverTheCapsParallelCrossesIt() throws {
        let shape = Shape.area(try Area(polygons: [[northCap]]))
        let south = Coordinate(latitude: 88.5, longitude: 30)
        let north = Coordinate(latitude: 89.5, longitude: 30)
        let fraction = try #require(shape.crossing(from: south, to: north))
        #expect(fraction > 0.5 && fraction < 1)
        #expect(shape.crossing(from: south, to: Coordinate(latitude: 88.5, longitude: -150)) == nil)
        #expect(abs(shape.excess(at: south) - 0.5 * Geodesy.metresPerDegree) < 100)
    }

    /// Antarctica's shape in Natural Earth: a coast that goes the whole way
    /// round, closed along the antimeridian and across the south pole.
    @Test func aCoastRoundTheSouthPoleClosedAcrossItHoldsWhatIsSouthOfTheCoast() throws {
        var coast: [(lon: Double, lat: Double)] = []
        for longitude in stride(from: -180.0, through: 180, by: 15) {
            let latitude: Double = -70 + 5 * sin(longitude * Double.pi / 90)
            coast.append((longitude, latitude))
        }
        coast += [(180, -90), (-180, -90), coast[0]]
        let antarctica = try Area(polygons: [[ring(coast)]])
        for longitude in stride(from: -179.0, through: 179, by: 7) {
            #expect(antarctica.contains(Coordinate(latitude: -76, longitude: longitude)), "\(longitude)")
            #expect(antarctica.contains(Coordinate(latitude: -89.9, longitude: longitude)), "\(longitude)")
            #expect(!antarctica.contains(Coordinate(latitude: -64, longitude: longitude)), "\(longitude)")
        }
    }

    @Test func aRingRoundAPoleThatNeverClosesIsRefusedByName() {
        let circuit = ring([(0, 80), (90, 80), (180, 80), (-90, 80), (0, 80)])
        #expect(throws: AreaError.aroundPole(polygon: 0, ring: 0)) { try Area(polygons: [[circuit]]) }
        let hole = ring([(-10, 85), (10, 85), (10, 86), (-10, 86), (-10, 85)])
        #expect(throws: AreaError.aroundPole(polygon: 1, ring: 0)) {
            try Area(polygons: [[northCap, hole], [circuit]])
        }
    }

    /// A ring across the antimeridian that has a vertex on it twice, as
    /// +180° and −180° on one parallel, is still the narrow one.
    @Test func aRingAcrossTheAntimeridianWithAVertexOnItTwiceStaysNarrow() throws {
        let fiji = ring([(179, -16), (180, -16), (-180, -16), (-179, -16), (-179, -17), (179, -17), (179, -16)])
        let area = try Area(polygons: [[fiji]])
        #expect(area.contains(Coordinate(latitude: -16.5, longitude: 179.9)))
        #expect(area.contains(Coordinate(latitude: -16.5, longitude: -179.9)))
        #expect(!area.contains(Coordinate(latitude: -16.5, longitude: 0)))
        #expect(area.boundingBox.west > 178 && area.boundingBox.east < -178)
    }
}
