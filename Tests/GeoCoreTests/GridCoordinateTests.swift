import GeoCore
import Testing

/// Grid conversions against published worked examples and against
/// GPSBabel's readings of its own reference files (../shared/corpus
/// `csv/gpsbabel/*.expected.unicsv`, six decimals; `bngtest.csv` from
/// GPSBabel's upstream `reference/bngtest.gpx`).
@Suite("Grid coordinates")
struct GridCoordinateTests {
    static func expectClose(_ c: Coordinate?, _ latitude: Double, _ longitude: Double, within tolerance: Double = 1e-6) {
        guard let c else {
            Issue.record("no coordinate")
            return
        }
        #expect(abs(c.latitude - latitude) <= tolerance, "latitude \(c.latitude) vs \(latitude)")
        #expect(abs(c.longitude - longitude) <= tolerance, "longitude \(c.longitude) vs \(longitude)")
    }

    @Test("the Ordnance Survey's worked example (guide annex C): E 651409.903 N 313177.270")
    func ordnanceSurveyExample() {
        let airy = TransverseMercator.britishNationalGrid.coordinate(easting: 651_409.903, northing: 313_177.270)
        // 52°39′27.2531″ N, 1°43′4.5177″ E, quoted to 0.0001″ (3e-8°).
        Self.expectClose(airy, 52 + 39.0 / 60 + 27.2531 / 3600, 1 + 43.0 / 60 + 4.5177 / 3600, within: 5e-8)
    }

    @Test(
        "100 km square letters",
        arguments: [
            ("SV", 0.0, 0.0), ("ST", 300_000, 100_000), ("TQ", 500_000, 100_000),
            ("NN", 200_000, 700_000), ("HP", 400_000, 1_200_000), ("sw", 100_000, 0),
        ])
    func squares(letters: String, easting: Double, northing: Double) throws {
        let origin = try #require(BritishNationalGrid.squareOrigin(letters))
        #expect(origin.easting == easting && origin.northing == northing)
    }

    @Test("letters that name no square", arguments: ["SI", "S", "STX", "S1", ""])
    func badSquares(letters: String) {
        #expect(BritishNationalGrid.squareOrigin(letters) == nil)
    }

    @Test("British National Grid to WGS 84 as GPSBabel's development head reads bngtest.csv")
    func britishNationalGrid() {
        Self.expectClose(BritishNationalGrid.coordinate(square: "ST", easting: 96552, northing: 3097), 50.827399503, -2.050323375)
        Self.expectClose(BritishNationalGrid.coordinate(square: "ST", easting: 91437, northing: 1894), 50.816527451, -2.122918364)
        Self.expectClose(BritishNationalGrid.coordinate(easting: 396_552, northing: 103_097), 50.827399503, -2.050323375)
    }

    @Test("Swiss LV03 to WGS 84 as GPSBabel 1.8.0 reads grid-swiss.csv, inside and far outside Switzerland")
    func swiss() {
        Self.expectClose(SwissGrid.coordinate(easting: 600_351, northing: 200_193), 46.952819, 7.443243)  // Bern
        Self.expectClose(SwissGrid.coordinate(easting: 682_958, northing: 247_645), 47.374420, 8.537068)  // Zurich
        Self.expectClose(SwissGrid.coordinate(easting: 648_179, northing: 47_105), 45.574031, 8.055719)  // Biella
        Self.expectClose(SwissGrid.coordinate(easting: 1, northing: 1), 44.890228, -0.163863)
    }

    @Test("UTM to WGS 84 as GPSBabel 1.8.0 reads grid-utm.csv, both hemispheres and the polar band X")
    func utm() {
        Self.expectClose(UTM.coordinate(zone: 44, band: "R", easting: 413_954, northing: 2_809_536), 25.400181, 80.144526)
        Self.expectClose(UTM.coordinate(zone: 10, band: "D", easting: 480_837, northing: 2_885_370), -64.157551, -123.394006)
        Self.expectClose(UTM.coordinate(zone: 29, band: "q", easting: 395_324, northing: 2_193_391), 19.833722, -9.999592)
        Self.expectClose(UTM.coordinate(zone: 31, band: "X", easting: 472_793, northing: 9_216_930), 82.999997, 0.999966)
        Self.expectClose(UTM.coordinate(zone: 33, band: "X", easting: 365_126, northing: 8_440_900), 76.000004, 10.000002)
    }

    @Test(
        "UTM zones and bands that do not exist",
        arguments: [(0, "N"), (61, "N"), (31, "I"), (31, "O"), (31, "B"), (31, "Y"), (31, "é")] as [(Int, Character)])
    func badUTM(zone: Int, band: Character) {
        #expect(UTM.coordinate(zone: zone, band: band, easting: 500_000, northing: 0) == nil)
    }

    @Test("Earth-centred X/Y/Z and back on every ellipsoid")
    func cartesianRoundTrip() {
        for ellipsoid in [Ellipsoid.wgs84, .airy1830, .bessel1841] {
            for (lat, lon, h) in [(0.0, 0.0, 0.0), (51.5, -0.12, 45.0), (-33.9, 151.2, -20.0), (89.9, 179.0, 1000.0)] {
                let xyz = ellipsoid.cartesian(latitude: lat, longitude: lon, height: h)
                let back = ellipsoid.geodetic(x: xyz.x, y: xyz.y, z: xyz.z)
                #expect(abs(back.latitude - lat) < 1e-10 && abs(back.longitude - lon) < 1e-10 && abs(back.height - h) < 1e-4)
            }
        }
    }
}
