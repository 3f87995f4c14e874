import Foundation
import GeoCore
import Geofencing
import Pipeline
import TestSupport
import Testing

@Suite struct RegionLoaderTests {
    func csv(_ text: String) -> LoadedRegions { RegionCSVLoader.load(Array(text.utf8), source: "r.csv") }
    func geojson(_ text: String) -> LoadedRegions { RegionGeoJSONLoader.load(Array(text.utf8), source: "r.json") }

    @Test func csvWithTheBenchHeaderLoads() throws {
        let loaded = csv("id,lat,lon,radius_m\n0,52.5200000,13.4000000,150.25\n1,52.53,13.41,50\n")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.regions.map(\.id) == ["0", "1"])
        #expect(loaded.regions[0].shape == .circle(centre: Coordinate(latitude: 52.52, longitude: 13.4), radius: 150.25))
    }

    @Test func csvHeaderNamesAreLooseAndColumnsMayMove() {
        let loaded = csv("Radius; Longitude; Latitude; Name; Task\r\n80;13.4;52.5;Pharmacy;cat-medicine\r\n\r\n")
        #expect(loaded.diagnostics.isEmpty)
        #expect(
            loaded.regions == [
                Region(
                    id: "Pharmacy", shape: .circle(centre: Coordinate(latitude: 52.5, longitude: 13.4), radius: 80),
                    task: "cat-medicine")
            ])
    }

    @Test("a regions CSV is read by the CSV feed's rules: | delimiter, # comments, CR lines, quoted fields")
    func csvReadLikeAFeed() {
        let loaded = csv("# shops\rName|Lat|Lng|Radius (m)|Task\r\"Bakery \"\"Mika\"\"\"|45.27|13.71|40|bread\r")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(
            loaded.regions == [
                Region(
                    id: "Bakery \"Mika\"", shape: .circle(centre: Coordinate(latitude: 45.27, longitude: 13.71), radius: 40),
                    task: "bread")
            ])
    }

    @Test("a spreadsheet's CSV with ; between the fields may write numbers with a decimal comma; a , file may not")
    func decimalCommas() {
        let loaded = csv("id;lat;lon;radius\nBakery;45,27;13,71;40,5\nOdd;45,2,7;13.71;40\nDot;45.27;13.71;40\n")
        #expect(
            loaded.regions == [
                Region(id: "Bakery", shape: .circle(centre: Coordinate(latitude: 45.27, longitude: 13.71), radius: 40.5)),
                Region(id: "Dot", shape: .circle(centre: Coordinate(latitude: 45.27, longitude: 13.71), radius: 40)),
            ])
        #expect(loaded.diagnostics.map(\.message) == ["latitude is not a number: \"45,2,7\""])
        // With , between the fields, "45,27" is two fields: the columns shift and the row is refused.
        #expect(csv("id,lat,lon,radius\nBakery,\"45,27\",\"13,71\",40\n").regions.isEmpty)
    }

    @Test("a UTF-16 regions CSV with latitude,longitude headers loads, lines numbered")
    func csvInUTF16() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "region_id,latitude,longitude,radius_m\r\nA,52.5,13.4,50\r\nB,95,13.4,50\r\n".utf16 {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let loaded = RegionCSVLoader.load(bytes, source: "r.csv")
        #expect(loaded.regions.map(\.id) == ["A"])
        #expect(loaded.diagnostics.map(\.location) == ["3"])
    }

    @Test func csvWithoutHeaderTakesIdLatLonRadius() {
        let loaded = csv("a,1,2,3\nb,4,5,6,task-b\n")
        #expect(loaded.regions.map(\.id) == ["a", "b"])
        #expect(loaded.regions[1].task == "task-b")
    }

    @Test func badCSVRowsAreLocatedReportedAndSkipped() {
        let loaded = csv(
            """
            id,lat,lon,radius
            ok,52.5,13.4,100
            zero,52.5,13.4,0
            negative,52.5,13.4,-5
            nan,52.5,13.4,nan
            north,91,13.4,100
            words,abc,13.4,100
            short,52.5
            ok2,-33.9,151.2,20
            """)
        #expect(loaded.regions.map(\.id) == ["ok", "ok2"])
        #expect(loaded.diagnostics.map(\.location) == ["3", "4", "5", "6", "7", "8"])
        #expect(loaded.diagnostics[0].description == "r.csv:3: radius must be a positive number of metres, got 0.0")
        #expect(loaded.diagnostics[3].message.contains("latitude"))
        #expect(loaded.diagnostics[4].message == "latitude is not a number: \"abc\"")
    }

    @Test func geoJSONPointsPolygonsAndMultiPolygonsLoad() throws {
        let loaded = geojson(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"pharmacy","properties":{"radius":150,"task":"cat-medicine"},
               "geometry":{"type":"Point","coordinates":[13.3777,52.5163]}},
              {"type":"Feature","properties":{"name":"park"},
               "geometry":{"type":"Polygon","coordinates":[
                 [[13.0,52.0],[13.1,52.0],[13.1,52.1],[13.0,52.1],[13.0,52.0]],
                 [[13.04,52.04],[13.06,52.04],[13.06,52.06],[13.04,52.06],[13.04,52.04]]]}},
              {"type":"Feature","properties":{"id":7},
               "geometry":{"type":"MultiPolygon","coordinates":[
                 [[[179.5,-17.0],[-179.5,-17.0],[-179.5,-16.0],[179.5,-16.0],[179.5,-17.0]]],
                 [[[10,10],[11,10],[11,11],[10,10]]]]}}
            ]}
            """)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.regions.map(\.id) == ["pharmacy", "park", "7"])
        #expect(loaded.regions[0].task == "cat-medicine")
        let park = loaded.regions[1].shape
        #expect(park.contains(Coordinate(latitude: 52.02, longitude: 13.02)))
        #expect(!park.contains(Coordinate(latitude: 52.05, longitude: 13.05)))  // in the hole
        let islands = loaded.regions[2].shape
        #expect(islands.contains(Coordinate(latitude: -16.5, longitude: 179.9)))
        #expect(islands.contains(Coordinate(latitude: -16.5, longitude: -179.9)))  // across ±180
        #expect(!islands.contains(Coordinate(latitude: -16.5, longitude: 0)))
        #expect(islands.contains(Coordinate(latitude: 10.2, longitude: 10.8)))
    }

    @Test func badGeoJSONFeaturesAreLocatedReportedAndSkipped() {
        let loaded = geojson(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"radius":0},"geometry":{"type":"Point","coordinates":[13,52]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[13,52]}},
              {"type":"Feature","properties":{"radius":10},"geometry":{"type":"Point","coordinates":[13,95]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
                 [[13.0,52.0],[13.1,52.0],[13.1,52.1],[13.0,52.1]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[13,52],[14,53]]}},
              {"type":"Feature","properties":{"radius":"25"},"geometry":{"type":"Point","coordinates":[13,52]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
                 [[0,80],[90,80],[180,80],[-90,80],[0,80]]]}}
            ]}
            """)
        #expect(loaded.regions.map(\.id) == ["features[5]"])
        #expect(loaded.diagnostics.map(\.location) == [0, 1, 2, 3, 4, 6].map { "features[\($0)]" })
        #expect(loaded.diagnostics[3].message.contains("open"))
        #expect(loaded.diagnostics[2].message.contains("latitude"))
        #expect(
            loaded.diagnostics[5].message
                == "polygon 0 ring 0 goes round a pole: close it as RFC 7946 does, along the antimeridian to the pole "
                + "and across it (… [180, 89], [180, 90], [-180, 90], [-180, 89] …)")
    }

    @Test("a ring whose positions lie on one line has no inside: refused where it is all there is, kept beside an area")
    func flatRings() {
        let loaded = geojson(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"street"},"geometry":{"type":"Polygon","coordinates":[
                 [[13.40,52.52],[13.41,52.52],[13.42,52.52],[13.40,52.52]]]}},
              {"type":"Feature","properties":{"name":"diagonal"},"geometry":{"type":"Polygon","coordinates":[
                 [[13.1,52.1],[13.3,52.3],[13.2,52.2],[13.1,52.1]]]}},
              {"type":"Feature","properties":{"name":"dot"},"geometry":{"type":"Polygon","coordinates":[
                 [[13.1,52.1],[13.1,52.1],[13.1,52.1],[13.1,52.1]]]}},
              {"type":"Feature","properties":{"name":"bow tie"},"geometry":{"type":"Polygon","coordinates":[
                 [[13.0,52.0],[13.1,52.1],[13.1,52.0],[13.0,52.1],[13.0,52.0]]]}},
              {"type":"Feature","properties":{"name":"square and line"},"geometry":{"type":"MultiPolygon","coordinates":[
                 [[[13.40,52.52],[13.41,52.52],[13.42,52.52],[13.40,52.52]]],
                 [[[13.0,52.0],[13.1,52.0],[13.1,52.1],[13.0,52.1],[13.0,52.0]]]]}}
            ]}
            """)
        #expect(loaded.regions.map(\.id) == ["bow tie", "square and line"])
        #expect(loaded.diagnostics.map(\.location) == [0, 1, 2].map { "features[\($0)]" })
        for diagnostic in loaded.diagnostics {
            #expect(
                diagnostic.message
                    == "it encloses no area: the positions of its outer rings lie on one line, so nothing is ever inside")
        }
        // A ring that crosses itself has an inside by the even–odd rule, though its signed surface is 0.
        let bowTie = loaded.regions[0].shape
        #expect(bowTie.contains(Coordinate(latitude: 52.05, longitude: 13.02)))
        #expect(bowTie.contains(Coordinate(latitude: 52.05, longitude: 13.08)))
        #expect(!bowTie.contains(Coordinate(latitude: 52.02, longitude: 13.05)))
        #expect(loaded.regions[1].shape.contains(Coordinate(latitude: 52.05, longitude: 13.05)))
    }

    @Test func invalidJSONIsOneDiagnostic() {
        let loaded = geojson("{\"type\": \"FeatureCollection\", \"features\": [")
        #expect(loaded.regions.isEmpty)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics[0].message.hasPrefix("not valid JSON"))
    }

    @Test func formatIsChosenByContent() {
        #expect(
            LoadedRegions.load(
                Array(
                    " {\"type\":\"Feature\",\"properties\":{\"radius\":5},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
                        .utf8), source: "x"
            ).regions.count == 1)
        #expect(LoadedRegions.load(Array("a,1,2,3\n".utf8), source: "x").regions.count == 1)
    }

    @Test("a CSV read in chunks of any size gives the same regions and diagnostics (issue 16: 10M rows)")
    func csvChunkBoundaries() {
        var text = "\u{FEFF}id;lat;lon;radius;task\r\n# shops\r\n"
        for index in 0..<300 {
            text += "\"shop \(index)\";\(52 + Double(index) / 1000);13.4;\(index % 7 == 3 ? "-1" : "50");t\(index % 4)\r\n"
        }
        let bytes = Array(text.utf8)
        let whole = RegionCSVLoader.load(bytes, source: "r.csv")
        #expect(whole.regions.count == 257)
        #expect(whole.diagnostics.count == 43)
        for size in [1, 2, 3, 7, 64, 1000, bytes.count] {
            var reader = RegionCSVReader(source: "r.csv")
            for start in stride(from: 0, to: bytes.count, by: size) {
                bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { reader.read($0) }
            }
            let chunked = reader.finish()
            #expect(chunked.regions == whole.regions, "chunks of \(size)")
            #expect(chunked.diagnostics == whole.diagnostics, "chunks of \(size)")
        }
    }

    @Test("a regions file is read in chunks and its format chosen by its first significant byte")
    func filesByContent() throws {
        let folder = temporaryDirectory("repeat-regions")
        let feature = #"{"type":"Feature","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let geojson = folder + "/r.json"
        try ("\n\n   " + feature).write(toFile: geojson, atomically: true, encoding: .utf8)
        #expect(try LoadedRegions.load(path: geojson).regions.count == 1)
        // Three chunks of the file reader and more: rows cross chunk boundaries.
        let csv = folder + "/r.csv"
        let rows = (0..<100_000).map { "region-\($0),\(Double($0 % 9000) / 100),13.4,25" }
        try ("\n" + rows.joined(separator: "\n")).write(toFile: csv, atomically: true, encoding: .utf8)
        let loaded = try LoadedRegions.load(path: csv)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.regions.count == 100_000)
        #expect(loaded.regions[99_999].id == "region-99999")
        #expect(loaded.regions == LoadedRegions.load(Array(try Data(contentsOf: URL(fileURLWithPath: csv))), source: csv).regions)
        #expect(throws: FileReadError.self) { try LoadedRegions.load(path: folder + "/missing.csv") }
    }
}
