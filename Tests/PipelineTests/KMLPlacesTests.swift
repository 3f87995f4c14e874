import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Pipeline
import TestSupport
import Testing

/// KML placemarks as places and regions: GPSBabel's KML of a Google
/// Takeout file against the GPX it was written from, and Google Earth's
/// shapes (a park with a pond, a campus of two buildings, a point with its
/// radius and task) in `Tracks/places/berlin-areas.kml`.
@Suite("KML placemarks as places and regions")
struct KMLPlacesTests {
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track("places/" + name))))
    }

    @Test("GPSBabel's KML of a Google Takeout GPX gives its waypoints' places: names and positions to 1e-6°")
    func gpsbabelKMLAgreesWithItsGPX() throws {
        let kml = LoadedPlaces.load(try Self.bytes("gpsbabel-googletakeout.kml"), source: "kml", defaultRadius: 120)
        let gpx = LoadedPlaces.load(try Self.bytes("gpsbabel-googletakeout.gpx"), source: "gpx", defaultRadius: 120)
        #expect(kml.diagnostics.isEmpty, "\(kml.diagnostics)")
        #expect(kml.places.count == 111 && kml.places.count == gpx.places.count)
        for (fromKML, fromGPX) in zip(kml.places, gpx.places) {
            #expect(fromKML.name == fromGPX.name)
            #expect(abs(fromKML.centre.latitude - fromGPX.centre.latitude) <= 1e-6, "\(fromKML.name)")
            #expect(abs(fromKML.centre.longitude - fromGPX.centre.longitude) <= 1e-6, "\(fromKML.name)")
            #expect(fromKML.radius == 120)
        }
    }

    @Test("Google Earth's shapes are regions: polygons with their holes, several polygons as one, circles of their radius")
    func shapesAreRegions() throws {
        let loaded = LoadedRegions.load(try Self.bytes("berlin-areas.kml"), source: "areas.kml", waypointRadius: 80)
        #expect((0..<loaded.regions.count).map { loaded.regions[$0].id } == ["Park", "Campus", "Pharmacy", "Placemark[3]"])
        let park = loaded.regions[0].shape
        #expect(park.contains(Coordinate(latitude: 52.5105, longitude: 13.3510)))
        #expect(!park.contains(Coordinate(latitude: 52.5130, longitude: 13.3550)), "the pond is a hole")
        let campus = loaded.regions[1].shape
        // The second building's ring is written open; it is closed.
        for longitude in [13.3710, 13.3750] { #expect(campus.contains(Coordinate(latitude: 52.5105, longitude: longitude))) }
        #expect(!campus.contains(Coordinate(latitude: 52.5105, longitude: 13.3730)))
        #expect(loaded.regions[2].shape == .circle(centre: Coordinate(latitude: 52.5163, longitude: 13.3777), radius: 150))
        #expect(loaded.regions[2].task == "cat-medicine")
        #expect(loaded.regions[3].shape == .circle(centre: Coordinate(latitude: 52.52, longitude: 13.39), radius: 80))
        #expect(
            loaded.diagnostics.map(\.description) == [
                "areas.kml:47: Placemark \"Walk to work\" is a LineString, a path, not a place (give a Point or a Polygon)",
                "areas.kml:51: Placemark \"Typo\": coordinates \"52.5200;13.3900\" are not lon,lat[,alt]",
            ])
    }

    @Test("as places, a placemark needs a name; a polygon becomes the circle around it")
    func shapesArePlaces() throws {
        let loaded = LoadedPlaces.load(try Self.bytes("berlin-areas.kml"), source: "areas.kml", defaultRadius: 80)
        #expect(loaded.places.map(\.name) == ["Park", "Campus", "Pharmacy"])
        #expect(loaded.places[2].radius == 150)
        // The park's circle holds its corners.
        #expect(
            Geodesy.distance(loaded.places[0].centre, Coordinate(latitude: 52.5160, longitude: 13.3600))
                <= loaded.places[0].radius + 0.01)
        #expect(loaded.diagnostics.first?.description == "areas.kml:44: a Placemark without a <name>; skipped")
    }

    @Test("a KML is told by its root element, not by its name; other XML is GPX's")
    func toldByRoot() throws {
        #expect(KMLPlacemarks.isKML(try Self.bytes("gpsbabel-googletakeout.kml")))
        #expect(!KMLPlacemarks.isKML(try Self.bytes("gpsbabel-googletakeout.gpx")))
        #expect(KMLPlacemarks.isKML(Array("<?xml version=\"1.0\"?>\n<!-- export -->\n<kml:kml xmlns:kml=\"x\">".utf8)))
        #expect(!KMLPlacemarks.isKML(Array("<?xml version=\"1.0\"?><kmlx>".utf8)))
    }

    @Test("a document cut short keeps the placemarks before the cut, and says where it broke")
    func cutShort() throws {
        let text = String(decoding: try Self.bytes("berlin-areas.kml"), as: UTF8.self)
        let cut = String(text[..<text.range(of: "<Placemark>\n      <Point>")!.lowerBound])
        let loaded = LoadedRegions.load(Array(cut.utf8), source: "cut.kml")
        #expect((0..<loaded.regions.count).map { loaded.regions[$0].id } == ["Park", "Campus", "Pharmacy"])
        #expect(loaded.diagnostics.count == 1 && loaded.diagnostics[0].message.hasPrefix("not well-formed XML: "))
    }

    @Test("an archive, a compressed file or binary data is said to be one, as places and as regions")
    func notPlaces() {
        let cases: [([UInt8], String)] = [
            ([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 40), "a zip archive, not places (a KMZ is a zipped KML"),
            ([0x1F, 0x8B, 0x08, 0x00] + Array(repeating: 0, count: 40), "a gzip-compressed file, not places"),
        ]
        for (bytes, message) in cases {
            #expect(
                LoadedPlaces.load(bytes, source: "f", defaultRadius: 100).diagnostics.map(\.message).first?.hasPrefix(message)
                    == true)
            #expect(LoadedRegions.load(bytes, source: "f").diagnostics.map(\.message).first?.hasPrefix(message) == true)
        }
    }

    @Test(
        "in UTF-16, a KML, a GPX and a GeoJSON file are told by their text, as places and as regions, read whole or from a file")
    func utf16() throws {
        func utf16(_ bytes: [UInt8]) -> [UInt8] {
            let text = String(decoding: bytes, as: UTF8.self)
            return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        let kml = utf16(try Self.bytes("berlin-areas.kml"))
        let gpx = utf16(Array(try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track("cat-medicine/places.gpx")))))
        let geoJSON = utf16(
            Array(
                #"{"type": "Feature", "properties": {"name": "Square", "radius": 50}, "geometry": {"type": "Point", "coordinates": [13.4, 52.5]}}"#
                    .utf8))
        let folder = temporaryDirectory("repeat-utf16-places")
        for (bytes, names) in [
            (kml, ["Park", "Campus", "Pharmacy"]), (gpx, ["Pharmacy", "Veterinary clinic", "Home"]), (geoJSON, ["Square"]),
        ] {
            #expect(LoadedPlaces.load(bytes, source: "f", defaultRadius: 100).places.map(\.name) == names)
            let regions = LoadedRegions.load(bytes, source: "f").regions
            #expect((0..<regions.count).map { regions[$0].id }.prefix(names.count) == names[...])
            let path = folder + "/places"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromFile = try LoadedRegions.load(path: path).regions
            #expect((0..<fromFile.count).map { fromFile[$0].id }.prefix(names.count) == names[...])
        }
    }
}
