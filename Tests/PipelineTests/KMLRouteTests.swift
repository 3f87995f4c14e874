import FeedParsing
import Foundation
import GeoCore
import Pipeline
import TestSupport
import Testing

/// KML paths as `generate` routes: GPSBabel's KML of the Višnjan car
/// drive, as a recorded `gx:Track` and as a drawn `LineString`, against the
/// GPX it was written from.
@Suite("KML paths as routes")
struct KMLRouteTests {
    static let gpx = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")

    @Test(
        "a gx:Track gives the GPX's points and times, a LineString its points without times",
        arguments: [("gpsbabel-visnjan-car-track.kml", true), ("gpsbabel-visnjan-car-line.kml", false)])
    func samePoints(file: String, timed: Bool) throws {
        let fromGPX = try RouteFile.load(path: Self.gpx, format: nil, options: FeedDecodingOptions())
        let fromKML = try RouteFile.load(
            path: RepositoryPaths.track("places/" + file), format: nil, options: FeedDecodingOptions())
        #expect(fromKML.count == fromGPX.count && fromGPX.count == 104)
        for (kml, gpx) in zip(fromKML, fromGPX) {
            #expect(abs(kml.coordinate.latitude - gpx.coordinate.latitude) <= 1e-6)
            #expect(abs(kml.coordinate.longitude - gpx.coordinate.longitude) <= 1e-6)
            #expect(kml.time == (timed ? gpx.time : nil))
        }
    }
}
