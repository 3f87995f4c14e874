import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

@testable import Pipeline

/// KML and GeoJSON lines as `generate` routes: GPSBabel's KML of the
/// Višnjan car drive, as a recorded `gx:Track` and as a drawn `LineString`,
/// and its GeoJSON `LineString`, against the GPX they were written from.
@Suite("KML and GeoJSON lines as routes")
struct RouteDocumentTests {
    static let gpx = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")

    @Test(
        "a gx:Track gives the GPX's points and times, a LineString its points without times",
        arguments: [
            ("gpsbabel-visnjan-car-track.kml", true), ("gpsbabel-visnjan-car-line.kml", false),
            ("gpsbabel-visnjan-car.geojson", false),
        ])
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

    @Test("GeoJSON: every LineString and MultiLineString in order, with togeojson's coordTimes; a gpsd feed stays a feed")
    func geoJSONShapes() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Point", "coordinates": [13.0, 52.0]}},
              {"type": "Feature", "properties": {"coordTimes": ["2025-03-01T10:00:00Z", "2025-03-01T10:01:00Z"]},
               "geometry": {"type": "LineString", "coordinates": [[13.40, 52.52], [13.41, 52.52, 34.0]]}},
              {"type": "Feature", "properties": {},
               "geometry": {"type": "MultiLineString", "coordinates": [[[13.42, 52.52], ["x", 52.5]], [[13.43, 52.53]]]}}
            ]}
            """
        let points = RouteFile.geoJSONLines(of: Array(text.utf8), name: "lines.geojson")
        #expect(points.map(\.coordinate.longitude) == [13.40, 13.41, 13.42, 13.43])
        #expect(points.map { $0.time.map(RFC3339.format) } == ["2025-03-01T10:00:00Z", "2025-03-01T10:01:00Z", nil, nil])
        #expect(RouteFile.DocumentKind(firstChunk: Array(text.utf8)) == .geoJSON)
        #expect(RouteFile.DocumentKind(firstChunk: Array(#"{"class":"TPV","lat":52.5,"lon":13.4}"#.utf8)) == nil)
    }
}
