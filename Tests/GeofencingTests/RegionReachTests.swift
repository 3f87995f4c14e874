import GeoCore
import Geofencing
import Testing

/// How far a position lies from the regions, for a run that found nothing.
@Suite("region reach")
struct RegionReachTests {
    static let berlin = Coordinate(latitude: 52.52, longitude: 13.40)

    @Test("the nearest region by the distance to its fence; exchanged lat and lon of circles found; none without regions")
    func nearestAndSwapped() throws {
        let swappedPharmacy = Region(
            id: "pharmacy", shape: .circle(centre: Coordinate(latitude: 13.40, longitude: 52.52), radius: 150))
        let rome = Region(id: "rome", shape: .circle(centre: Coordinate(latitude: 41.9, longitude: 12.5), radius: 1000))
        // A square of 0.02° round 48.85 N 2.35 E: its fence is its edge.
        let paris = Region(
            id: "paris",
            shape: .area(
                try Area(polygons: [
                    [
                        [
                            Coordinate(latitude: 48.84, longitude: 2.34), Coordinate(latitude: 48.84, longitude: 2.36),
                            Coordinate(latitude: 48.86, longitude: 2.36), Coordinate(latitude: 48.86, longitude: 2.34),
                            Coordinate(latitude: 48.84, longitude: 2.34),
                        ]
                    ]
                ])))
        let reach = try #require(RegionReach.of(RegionTable([swappedPharmacy, rome, paris]), from: Self.berlin))
        let toParis = paris.shape.excess(at: Self.berlin)
        #expect(reach.nearest == "paris")
        #expect(abs(reach.metres - toParis) < 1e-6)
        #expect(toParis < Geodesy.distance(Self.berlin, Coordinate(latitude: 48.85, longitude: 2.35)))
        // The pharmacy's centre exchanged is Berlin itself: inside its fence.
        #expect(reach.metresSwapped == 0)
        #expect(RegionReach.of(RegionTable(), from: Self.berlin) == nil)

        // A longitude beyond ±90° cannot be a latitude: no exchange is tried.
        let tokyo = Region(id: "tokyo", shape: .circle(centre: Coordinate(latitude: 35.68, longitude: 139.69), radius: 100))
        let far = try #require(RegionReach.of(RegionTable([tokyo]), from: Self.berlin))
        #expect(far.metresSwapped == nil)
        #expect(abs(far.metres - (Geodesy.distance(Self.berlin, Coordinate(latitude: 35.68, longitude: 139.69)) - 100)) < 1e-6)
    }
}
