import FeedParsing
import Foundation
import GeoCore
import Pipeline
import TestSupport
import Testing

@Suite("Named places: files, names, the nearest one")
struct NamedPlaceTests {
    static func load(_ text: String, radius: Double = 100) -> LoadedPlaces {
        LoadedPlaces.load(Array(text.utf8), source: "places", defaultRadius: radius)
    }

    @Test("GPX waypoints with a name; one without is reported")
    func gpx() {
        let loaded = Self.load(
            """
            <?xml version="1.0"?><gpx version="1.1"><wpt lat="45.27884" lon="13.72245"><name> Pharmacy </name></wpt>
            <wpt lat="1" lon="2"/><trk><trkseg><trkpt lat="3" lon="4"/></trkseg></trk></gpx>
            """, radius: 150)
        #expect(
            loaded.places == [
                NamedPlace(name: "Pharmacy", centre: Coordinate(latitude: 45.27884, longitude: 13.72245), radius: 150)
            ])
        #expect(loaded.diagnostics.map(\.message) == ["a waypoint without a <name>; skipped"])
    }

    @Test("GeoJSON: a Point's radius or the default, a Polygon as the circle around it, a feature without a name reported")
    func geoJSON() throws {
        let loaded = Self.load(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"Vet","radius":60},"geometry":{"type":"Point","coordinates":[13.72093,45.28517]}},
              {"type":"Feature","properties":{"name":"Home"},"geometry":{"type":"Point","coordinates":[13.71468,45.29411]}},
              {"type":"Feature","properties":{"name":"Park"},"geometry":{"type":"Polygon","coordinates":[[[13.0,45.0],[13.002,45.0],[13.002,45.002],[13.0,45.002],[13.0,45.0]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
              {"type":"Feature","properties":{"name":"Nowhere"},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}
            ]}
            """, radius: 80)
        #expect(loaded.places.map(\.name) == ["Vet", "Home", "Park"])
        #expect(loaded.places.map(\.radius).prefix(2) == [60, 80])
        let park = try #require(loaded.places.last)
        // The circle holds every vertex of the square, and not much more.
        for corner in [(45.0, 13.0), (45.002, 13.002), (45.0, 13.002), (45.002, 13.0)] {
            #expect(Geodesy.distance(park.centre, Coordinate(latitude: corner.0, longitude: corner.1)) <= park.radius + 1e-6)
        }
        #expect(park.radius < 137)  // half the square's diagonal: 136 m
        #expect(loaded.diagnostics.map(\.location) == ["features[3]", "features[4]"])
    }

    @Test("Google Takeout's saved places: named by their location, a place without a position (0°, 0°) reported")
    func googleTakeoutSavedPlaces() throws {
        // The shapes of Takeout's "Saved Places.json", old (Title, Location) and new (location.name).
        let loaded = Self.load(
            """
            {"type": "FeatureCollection", "features": [
             {"geometry": {"coordinates": [13.3777, 52.5163], "type": "Point"}, "type": "Feature",
              "properties": {"date": "2024-05-02T10:11:12Z", "google_maps_url": "http://maps.google.com/?cid=1",
               "location": {"address": "Unter den Linden 1, 10117 Berlin", "country_code": "DE", "name": "Apotheke"}}},
             {"geometry": {"coordinates": [0, 0], "type": "Point"}, "type": "Feature",
              "properties": {"google_maps_url": "http://maps.google.com/?q=Tierarzt", "location": {"name": "Tierarzt"}}},
             {"geometry": {"coordinates": [13.40, 52.52], "type": "Point"}, "type": "Feature",
              "properties": {"Title": "Home", "Location": {"Business Name": "not this", "Address": "x"}}},
             {"geometry": {"coordinates": [13.41, 52.53], "type": "Point"}, "type": "Feature",
              "properties": {"Location": {"Business Name": "Bakery"}}}
            ]}
            """)
        #expect(loaded.places.map(\.name) == ["Apotheke", "Home", "Bakery"])
        #expect(loaded.places[0].centre == Coordinate(latitude: 52.5163, longitude: 13.3777))
        #expect(
            loaded.diagnostics.map(\.description) == [
                "places:features[1]: \"Tierarzt\" is at 0°, 0°, a position the file does not have; skipped"
            ])
    }

    @Test(
        "Google Takeout's Semantic Location History: each place visited once, named as GPSBabel names it, where GPSBabel puts it; candidates and movements are not places"
    )
    func googleTakeoutVisits() throws {
        let path = RepositoryPaths.track("places/google-takeout-2013_JUNE-excerpt.json")
        let excerpt = try Data(contentsOf: URL(fileURLWithPath: path))
        let loaded = LoadedPlaces.load([UInt8](excerpt), source: "june", defaultRadius: 75)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let home = "134-248 Oregon Expy, Palo Alto, California 94306, United States"
        // Six visits; the address Google has no name for is visited twice.
        #expect(
            loaded.places.map(\.name) == [home, "Stanford University", "LYFE Kitchen", "Trader Joe's", "Joanie's Cafe"])
        #expect(loaded.places.allSatisfy { $0.radius == 75 })
        // GPSBabel's reading of the whole of Google's files (Tracks/places/gpsbabel-googletakeout.gpx)
        // has a waypoint per visit, with the same name at the same position.
        let gpsbabel = LoadedPlaces.load(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track("places/gpsbabel-googletakeout.gpx")))),
            source: "gpx", defaultRadius: 75)
        for place in loaded.places {
            let waypoint = try #require(gpsbabel.places.first { $0.name == place.name }, "\(place.name)")
            #expect(abs(waypoint.centre.latitude - place.centre.latitude) < 1e-9, "\(place.name)")
            #expect(abs(waypoint.centre.longitude - place.centre.longitude) < 1e-9, "\(place.name)")
        }
    }

    @Test(
        "Google Takeout's Semantic Location History: a visit without a name or an address, or a position, is reported with its index"
    )
    func googleTakeoutVisitProblems() throws {
        let loaded = Self.load(
            """
            {"timelineObjects": [
             {"activitySegment": {"endLocation": {"latitudeE7": 525163000, "longitudeE7": 133777000, "name": "Not a visit"}}},
             {"placeVisit": {"location": {"latitudeE7": 525163000, "longitudeE7": 133777000, "placeId": "a"}}},
             {"placeVisit": {"location": {"placeId": "b", "name": "Nowhere"}}},
             {"placeVisit": {"location": {"latitudeE7": 915163000, "longitudeE7": 133777000, "name": "Beyond the pole"}}},
             {"placeVisit": {"location": {"latitudeE7": 525200000, "longitudeE7": 134050000, "name": "Bakery"}}},
             {"placeVisit": {"location": {"latitudeE7": 525200100, "longitudeE7": 134050100, "name": "bakery"}}}
            ]}
            """)
        // Without a placeId, the same name is the same place, as the place book compares names.
        let bakery = NamedPlace(name: "Bakery", centre: Coordinate(latitude: 52.52, longitude: 13.405), radius: 100)
        #expect(loaded.places == [bakery])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "places:timelineObjects[1].placeVisit: a visit to a place without a name or an address; skipped",
                "places:timelineObjects[2].placeVisit: \"Nowhere\" has no latitudeE7 and longitudeE7; skipped",
                "places:timelineObjects[3].placeVisit: \"Beyond the pole\": latitude must be within ±90°, got 91.5163; skipped",
            ])
    }

    @Test("Google's Timeline export: Home and Work where the user labelled them (Dawarich's Android fixture)")
    func timelineLabelledPlaces() throws {
        let path = RepositoryPaths.track("timeline/dawarich-timeline-new-format.json")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let loaded = LoadedPlaces.load(bytes, source: "Timeline.json", defaultRadius: 150)
        #expect(loaded.diagnostics.isEmpty)
        #expect(
            loaded.places == [
                NamedPlace(name: "Home", centre: Coordinate(latitude: 48.8566, longitude: 2.3522), radius: 150),
                NamedPlace(name: "Work", centre: Coordinate(latitude: 48.8606, longitude: 2.3376), radius: 150),
            ])
        let timeline = try #require(TimelinePlaces(bytes))
        #expect(
            timeline.places.map(\.origin) == [
                "userLocationProfile.frequentPlaces[0]", "userLocationProfile.frequentPlaces[1]",
            ])
    }

    /// A visit of an iOS export to `place` (`geo:` text) typed `type`, starting at `start`.
    static func iOSVisit(_ place: String, _ id: String, _ type: String, _ start: String) -> String {
        #"{"startTime": "\#(start)", "endTime": "\#(start)", "visit": {"topCandidate": "#
            + #"{"semanticType": "\#(type)", "placeID": "\#(id)", "placeLocation": "geo:\#(place)"}}}"#
    }

    @Test("without labels, the Home (or Work) Google typed that was visited most, the latest of equals; iOS's words read")
    func timelineTypedPlaces() throws {
        let visits = [
            Self.iOSVisit("52.52,13.40", "old-home", "Home", "2024-01-01T20:00:00Z"),
            Self.iOSVisit("52.53,13.41", "new-home", "Inferred Home", "2024-02-01T20:00:00Z"),
            Self.iOSVisit("52.53,13.41", "new-home", "Inferred Home", "2024-02-02T20:00:00Z"),
            Self.iOSVisit("52.50,13.30", "office", "Work", "2024-02-01T09:00:00Z"),
            Self.iOSVisit("52.51,13.31", "cowork", "INFERRED_WORK", "2024-02-03T09:00:00Z"),
            Self.iOSVisit("52.54,13.42", "cafe", "Unknown", "2024-02-04T09:00:00Z"),
            Self.iOSVisit("52.55,13.43", "gym", "ALIASED_LOCATION", "2024-02-05T09:00:00Z"),
        ]
        let loaded = Self.load("[\n" + visits.joined(separator: ",\n") + "\n]")
        #expect(loaded.diagnostics.isEmpty)
        #expect(
            loaded.places == [
                NamedPlace(name: "Home", centre: Coordinate(latitude: 52.53, longitude: 13.41), radius: 100),
                NamedPlace(name: "Work", centre: Coordinate(latitude: 52.51, longitude: 13.31), radius: 100),
            ])
        // Android's words, and a label that outranks the visits.
        let android = """
            {"semanticSegments": [
              {"startTime": "2024-01-01T20:00:00.000+01:00", "endTime": "2024-01-02T08:00:00.000+01:00",
               "visit": {"topCandidate": {"placeId": "h", "semanticType": "INFERRED_HOME", "placeLocation": {"latLng": "52.52°, 13.40°"}}}}
            ],
            "userLocationProfile": {"frequentPlaces": [{"placeId": "w", "placeLocation": "52.50°, 13.30°", "label": "WORK"}]}}
            """
        #expect(
            Self.load(android).places == [
                NamedPlace(name: "Home", centre: Coordinate(latitude: 52.52, longitude: 13.40), radius: 100),
                NamedPlace(name: "Work", centre: Coordinate(latitude: 52.50, longitude: 13.30), radius: 100),
            ])
    }

    @Test("Google's other exports say what they are: Records.json and the on-device Timeline are feeds")
    func googleExportsWithoutPlaces() {
        let records = Self.load(
            #"{"locations": [{"latitudeE7": 525163000, "longitudeE7": 133777000, "timestamp": "2024-01-01T00:00:00Z"}]}"#)
        #expect(records.places.isEmpty)
        #expect(
            records.diagnostics.map(\.description) == [
                "places:1: Google Takeout's location history (Records.json): positions, not named places (replay takes it as a FEED)"
            ])
        for timeline in [
            #"{"semanticSegments": [{"startTime": "2019-04-03T08:00:00.000+02:00", "endTime": "2019-04-03T10:00:00.000+02:00"}]}"#,
            #"[{"endTime": "2025-07-29T15:00:00.000Z", "startTime": "2025-07-29T13:00:00.000Z", "timelinePath": []}]"#,
        ] {
            let loaded = Self.load(timeline)
            #expect(loaded.places.isEmpty)
            #expect(
                loaded.diagnostics.map(\.message) == [
                    "Google's on-device Timeline export (Timeline.json) names no Home or Work, and no other place "
                        + "(replay takes it as a FEED)"
                ], "\(timeline)")
            let regions = LoadedRegions.load(Array(timeline.utf8), source: "regions")
            #expect(
                regions.diagnostics.map(\.message) == [
                    "Google's on-device Timeline export (Timeline.json): positions, not regions (replay takes it as a FEED)"
                ], "\(timeline)")
        }
        let regions = LoadedRegions.load(Array(#"{"locations": []}"#.utf8), source: "regions")
        #expect(
            regions.diagnostics.map(\.message) == [
                "Google Takeout's location history (Records.json): positions, not regions (replay takes it as a FEED)"
            ])
    }

    @Test("GeoJSON: a Polygon across the antimeridian is centred there; one round a pole, on the pole")
    func geoJSONAtTheEndsOfTheMap() throws {
        let loaded = Self.load(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"Taveuni"},"geometry":{"type":"Polygon","coordinates":[[[179.5,-17.0],[-179.5,-17.0],[-179.5,-16.0],[179.5,-16.0],[179.5,-17.0]]]}},
              {"type":"Feature","properties":{"name":"Arctic"},"geometry":{"type":"Polygon","coordinates":[[[-180,89],[180,89],[180,90],[-180,90],[-180,89]]]}}
            ]}
            """, radius: 80)
        let (taveuni, arctic) = (loaded.places[0], loaded.places[1])
        #expect(abs(taveuni.centre.latitude + 16.5) < 1e-9 && abs(abs(taveuni.centre.longitude) - 180) < 1e-9)
        // Half the 1° × 1° square's diagonal at 16.5° S, not half the world.
        #expect(taveuni.radius > 75_000 && taveuni.radius < 79_000, "\(taveuni.radius)")
        #expect(arctic.centre.latitude == 90)
        #expect(abs(arctic.radius - Geodesy.metresPerDegree) < 1, "\(arctic.radius)")
    }

    @Test("CSV name,lat,lon[,radius]: the default where the radius is empty; bad rows reported with their line")
    func csv() {
        let loaded = Self.load(
            "name;lat;lon;radius\nPharmacy;45.27884;13.72245;150\nHome;45.29411;13.71468;\n;1;2;3\nFar;95;2;3\n")
        #expect(loaded.places.map(\.name) == ["Pharmacy", "Home"])
        #expect(loaded.places.map(\.radius) == [150, 100])
        #expect(loaded.diagnostics.map(\.location) == ["4", "5"])
        #expect(Self.load("a,b\n1,2\n").diagnostics.map(\.message).first?.contains("name,lat,lon[,radius]") == true)
        // A spreadsheet's export with ; and decimal commas.
        let commas = Self.load("\u{FEFF}name;lat;lon;radius\r\n\"Bäckerei, Süd\";48,1;11,5;80,5\r\n")
        #expect(
            commas.places == [
                NamedPlace(name: "Bäckerei, Süd", centre: Coordinate(latitude: 48.1, longitude: 11.5), radius: 80.5)
            ])
        #expect(
            Self.load("name,lat,lon\nA,\"48,1\",\"11,5\"\n").diagnostics.map(\.message) == [
                #"lat and lon must be numbers: "48,1", "11,5""#
            ])
    }

    static let book = [
        NamedPlace(name: "Apotheke Süd", centre: Coordinate(latitude: 48.10, longitude: 11.50), radius: 100),
        NamedPlace(name: "Apotheke Nord", centre: Coordinate(latitude: 48.20, longitude: 11.50), radius: 100),
        NamedPlace(name: "Tierarzt", centre: Coordinate(latitude: 48.15, longitude: 11.55), radius: 80),
    ]

    @Test(
        "names are matched without case or accents; a start of the name or of a word is enough when one place fits",
        arguments: [
            ("apotheke sud", "Apotheke Süd"), ("APOTHEKE SÜD", "Apotheke Süd"), ("tier", "Tierarzt"), ("nord", "Apotheke Nord"),
        ])
    func found(typed: String, expected: String) {
        #expect(NamedPlace.lookUp(typed, in: Self.book) == .found(Self.book.first { $0.name == expected }!))
    }

    @Test("an ambiguous name lists its candidates; an unknown one suggests the nearest names")
    func ambiguousAndUnknown() {
        let ambiguous = NamedPlace.lookUp("apo", in: Self.book)
        #expect(ambiguous == .ambiguous([Self.book[0], Self.book[1]]))
        #expect(
            "\(PlaceLookupError(name: "apo", match: ambiguous))"
                == "'apo' could be Apotheke Süd (48.1,11.5), Apotheke Nord (48.2,11.5): give more of the name")
        let unknown = NamedPlace.lookUp("Tierartz", in: Self.book)
        guard case .unknown(let suggestions) = unknown else {
            Issue.record("expected unknown, got \(unknown)")
            return
        }
        #expect(suggestions.first == "Tierarzt")
        // Nothing near in spelling is suggested: no name, rather than the first three of the book.
        #expect(NamedPlace.lookUp("zzz", in: Self.book) == .unknown(suggestions: []))
        #expect(
            "\(PlaceLookupError(name: "zzz", match: .unknown(suggestions: [])))"
                == "no place named 'zzz' (place list shows them all)")
        #expect(NamedPlace.lookUp("Apotheke", in: []) == .emptyBook)
        #expect("\(PlaceLookupError(name: "x", match: .emptyBook))".contains("the place book is empty"))
    }

    @Test("the nearest place through the grid is the brute force's, within the distance and beyond it none")
    func nearestMatchesBruteForce() {
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 0x91AC_E5))
        let places = (0..<500).map { k in
            NamedPlace(
                name: "p\(k)",
                centre: Coordinate(
                    latitude: 48 + Double.random(in: 0..<0.2, using: &random),
                    longitude: 11 + Double.random(in: 0..<0.3, using: &random)),
                radius: 50)
        }
        let index = NearestPlaces(places: places, within: 400)
        for _ in 0..<2000 {
            let point = Coordinate(
                latitude: 47.99 + Double.random(in: 0..<0.22, using: &random),
                longitude: 10.99 + Double.random(in: 0..<0.32, using: &random))
            var brute: (index: Int, distance: Double)?
            for (k, place) in places.enumerated() {
                let distance = Geodesy.distance(point, place.centre)
                if distance <= 400, distance < (brute?.distance ?? .infinity) { brute = (k, distance) }
            }
            let found = index.nearest(to: point)
            #expect(found?.place == brute.map { places[$0.index] })
            #expect(found?.distance == brute?.distance)
        }
    }
}
