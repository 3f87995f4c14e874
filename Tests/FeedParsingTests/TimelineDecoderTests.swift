import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

@Suite("Google Timeline export decoder")
struct TimelineDecoderTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try readBytes(RepositoryPaths.track("timeline/\(name)"))
    }

    static func time(_ fix: Fix) -> String? { fix.time.map(RFC3339.format) }

    @Test("iOS's array of segments (Dawarich's location-history.json) reads as Dawarich's importer spec expects")
    func dawarichIOS() throws {
        let batch = decode(try Self.fixture("dawarich-location-history.json"), format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        // Dawarich keeps a visit's start only; Repeat adds its end, here moved to just
        // before the path 2 km away that Google began before the visit's end (22:04:26.999).
        let visitEnd = try #require(batch.fixes.firstIndex { Self.time($0) == "2023-08-27T22:03:59.999Z" })
        #expect(batch.fixes[visitEnd].coordinate == Coordinate(latitude: 27.720022, longitude: -97.347951))
        var points = batch.fixes
        points.remove(at: visitEnd)
        // phone_takeout_importer_spec.rb: 8 points; the 7th and the last, by time.
        try #require(points.count == 8)
        #expect(points[6].coordinate == Coordinate(latitude: 27.696576, longitude: -97.376949))
        #expect(points[6].time?.secondsSince1970 == 1_693_180_140)
        #expect(points[7].coordinate == Coordinate(latitude: 27.709617, longitude: -97.375988))
        #expect(points[7].time?.secondsSince1970 == 1_693_180_320)
        #expect(points.first.map(Self.time) == "2023-08-27T20:48:56.000Z")
        // The visit's place, then its path's first point, 49 minutes after the path segment's start.
        #expect(points[1].coordinate == Coordinate(latitude: 27.720007, longitude: -97.348044))
        #expect(Self.time(points[1]) == "2023-08-27T20:49:00.000Z")
        #expect(batch.fixes.allSatisfy { $0.device == nil && $0.accuracy == nil })
        let decoder = makeFeedDecoder(format: .timeline)
        var again = FeedBatch()
        decoder.decode(try Self.fixture("dawarich-location-history.json"), into: &again)
        decoder.finish(into: &again)
        #expect(decoder.statistics.ignored == ["repeated position": 3, "timelineMemory": 1])
    }

    @Test("Android's export with every section (Dawarich's timeline_new_format.json) reads as Dawarich's spec expects")
    func dawarichAndroid() throws {
        let batch = decode(try Self.fixture("dawarich-timeline-new-format.json"), format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        let rows = batch.fixes.map { "\(Self.time($0)!) \($0.coordinate.latitude) \($0.coordinate.longitude)" }
        #expect(
            rows == [
                // The visit (degree signs escaped as \u00b0), from its start to its end, where the activity starts.
                "2024-06-15T07:00:00.000Z 48.8566 2.3522",
                "2024-06-15T08:00:00.000Z 48.8566 2.3522",
                // The activity's end, then the path's two points.
                "2024-06-15T08:30:00.000Z 48.8606 2.3376",
                "2024-06-15T08:35:00.000Z 48.8606 2.3376",
                "2024-06-15T08:40:00.000Z 48.862 2.335",
                // The raw signal: plain decimals, its altitude, accuracy and speed.
                "2024-06-15T09:05:00.000Z 48.8566 2.3522",
            ])
        let raw = try #require(batch.fixes.last)
        #expect(raw.elevation == 35 && raw.accuracy == 15 && raw.speed == 0)
    }

    @Test("the two sections are merged in time order, whichever comes first in the file")
    func sectionsMerged() throws {
        let bytes = try Self.fixture("dawarich-semantic-and-raw-signals.json")
        let batch = decode(bytes, format: nil)
        #expect(batch.diagnostics.isEmpty)
        #expect(
            batch.fixes.map { "\(Self.time($0)!) \($0.accuracy.map { "\($0)" } ?? "-")" } == [
                "2026-06-20T08:00:00.000Z -", "2026-06-20T08:00:31.000Z 8.0", "2026-06-20T08:01:00.000Z -",
                "2026-06-20T08:01:22.000Z 9.0",
            ])
        // The same document with rawSignals first (Dawarich's raw_signals_before_semantic case).
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let swapped =
            "{\"rawSignals\": \(try Self.json(document["rawSignals"]!)),\n\"semanticSegments\": \(try Self.json(document["semanticSegments"]!))}"
        #expect(decode(swapped, format: nil).fixes == batch.fixes)
        for name in [
            "dawarich-location-history.json", "dawarich-timeline-new-format.json", "dawarich-semantic-and-raw-signals.json",
        ] {
            TakeoutDecoderTests.expectSameInChunks(String(decoding: try Self.fixture(name), as: UTF8.self))
        }
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted]), as: UTF8.self)
    }

    @Test("positions in each form Google writes them: degrees, plain decimals, geo: with an altitude")
    func positionForms() throws {
        let text = """
            {"rawSignals": [
              {"position": {"LatLng": "52.8899352°, -2.2046753°", "timestamp": "2026-07-06T12:11:11.000+01:00"}},
              {"position": {"LatLng": "48.8566,2.3522", "timestamp": "2026-07-06T12:11:12Z"}},
              {"position": {"LatLng": "geo:48.8566,2.3522,35.0", "timestamp": "2026-07-06T12:11:13Z"}},
              {"position": {"LatLng": "48.8566\\u00b0, 2.3522\\u00b0", "timestamp": "2026-07-06T12:11:14Z", "altitudeMeters": 170.02252197265625}}
            ]}
            """
        let batch = decode(text, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(
            batch.fixes.map(\.coordinate) == [
                Coordinate(latitude: 52.8899352, longitude: -2.2046753), Coordinate(latitude: 48.8566, longitude: 2.3522),
                Coordinate(latitude: 48.8566, longitude: 2.3522), Coordinate(latitude: 48.8566, longitude: 2.3522),
            ])
        #expect(batch.fixes.map(\.elevation) == [nil, nil, 35, 170.02252197265625])
        #expect(batch.fixes.first.map(Self.time) == "2026-07-06T11:11:11.000Z")
    }

    @Test("a visit's end is moved before the first fix away from its place, and dropped when nothing is left of it")
    func visitEnds() throws {
        // Visit 10:00-11:00 at 52.5, 13.4; raw fixes 50 m off at 10:30 and 167 m off at 10:40 but ±80 m (still
        // there), then 1 km off at 10:45.
        let text = """
            {"semanticSegments": [
              {"startTime": "2024-01-01T10:00:00Z", "endTime": "2024-01-01T11:00:00Z",
               "visit": {"topCandidate": {"placeLocation": {"latLng": "52.5°, 13.4°"}}}},
              {"startTime": "2024-01-01T12:00:00Z", "endTime": "2024-01-01T13:00:00Z",
               "visit": {"topCandidate": {"placeLocation": {"latLng": "52.6°, 13.4°"}}}}
            ],
            "rawSignals": [
              {"position": {"LatLng": "52.50045, 13.4", "timestamp": "2024-01-01T10:30:00Z"}},
              {"position": {"LatLng": "52.5015, 13.4", "timestamp": "2024-01-01T10:40:00Z", "accuracyMeters": 80}},
              {"position": {"LatLng": "52.509, 13.4", "timestamp": "2024-01-01T10:45:00Z"}},
              {"position": {"LatLng": "52.61, 13.4", "timestamp": "2024-01-01T12:00:00.001Z"}}
            ]}
            """
        let batch = decode(text, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(
            batch.fixes.map { "\(Self.time($0)!) \($0.coordinate.latitude)" } == [
                "2024-01-01T10:00:00Z 52.5", "2024-01-01T10:30:00Z 52.50045", "2024-01-01T10:40:00Z 52.5015",
                "2024-01-01T10:44:59.999Z 52.5",
                "2024-01-01T10:45:00Z 52.509",
                // The second visit: 1 km away a millisecond after it starts; no end is left.
                "2024-01-01T12:00:00Z 52.6", "2024-01-01T12:00:00.001Z 52.61",
            ])
    }

    @Test("a bad element or point is reported with its name and line and skipped; what gives no position is counted")
    func badElements() throws {
        let text = """
            {"semanticSegments": [
              {"startTime": "2024-01-01T10:00:00Z", "endTime": "2024-01-01T11:00:00Z", "timelinePath": [
                {"point": "52.5°, 13.4°", "time": "2024-01-01T10:01:00Z"},
                {"time": "2024-01-01T10:02:00Z"},
                {"point": "north", "time": "2024-01-01T10:03:00Z"},
                {"point": "91°, 13.4°", "time": "2024-01-01T10:04:00Z"},
                {"point": "52.5°, 13.4°", "time": "soon"},
                {"point": "52.5°, 13.4°", "durationMinutesOffsetFromStartTime": "-5"},
                {"point": "52.5°, 13.4°"},
                {"point": "52.6°, 13.4°", "durationMinutesOffsetFromStartTime": 7}
              ]},
              {"endTime": "2024-01-01T11:00:00Z", "visit": {"topCandidate": {"placeLocation": "geo:1,2"}}},
              {"startTime": "2024-01-01T12:00:00Z", "visit": {"topCandidate": {"placeId": "x"}}},
              {"startTime": "2024-01-01T12:00:00Z", "visit": {"topCandidate": {"placeLocation": null}}},
              {"startTime": "2024-01-01T12:00:00Z", "endTime": "2024-01-01T12:30:00Z", "activity": {"end": {"latLng": "52.7°, 13.4°"}}},
              {"startTime": "2024-01-01T13:00:00Z", "endTime": "2024-01-01T13:30:00Z", "activity": {"start": null}},
              {"startTime": "2024-01-01T13:00:00Z", "timelineMemory": {"destinations": []}},
              {"startTime": "2024-01-01T14:00:00Z" "visit": {}},
              7
            ],
            "rawSignals": [
              {"position": {"timestamp": "2024-01-01T10:00:00Z"}},
              {"position": {"LatLng": "52.5, 13.4"}},
              {"position": {"LatLng": "52.5, 13.4", "timestamp": "2024-01-01T10:05:00Z", "accuracyMeters": -3}},
              {"wifiScan": {"deliveryTime": "2024-01-01T10:00:00Z", "devicesRecords": []}},
              {"activityRecord": {"probableActivities": [], "timestamp": "2024-01-01T10:00:00Z"}},
              {"position": {"LatLng": "52.5, 13.4", "timestamp": "2024-01-01T10:06:00Z", "speedMetersPerSecond": -1}}
            ],
            "userLocationProfile": {"frequentPlaces": [{"placeLocation": "52.5, 13.4", "label": "HOME"}]}}
            """
        let decoder = makeFeedDecoder(format: nil)
        var batch = FeedBatch()
        decoder.decode(Array(text.utf8), into: &batch)
        decoder.finish(into: &batch)
        #expect(
            batch.fixes.map { "\(Self.time($0)!) \($0.coordinate.latitude)" } == [
                "2024-01-01T10:01:00Z 52.5", "2024-01-01T10:06:00Z 52.5", "2024-01-01T10:07:00Z 52.6",
                "2024-01-01T12:30:00Z 52.7",
            ])
        #expect(batch.fixes[1].speed == nil)
        let messages = batch.diagnostics.map { "\($0.location.line): \($0.message)" }
        #expect(
            messages == [
                "4: semanticSegments[0].timelinePath[1] has no point; skipped",
                "5: semanticSegments[0].timelinePath[2]: point 'north' is no latitude, longitude; skipped",
                "6: semanticSegments[0].timelinePath[3]: point '91°, 13.4°' is no latitude, longitude; skipped",
                "7: semanticSegments[0].timelinePath[4]: time 'soon' is not RFC 3339; skipped",
                "8: semanticSegments[0].timelinePath[5]: durationMinutesOffsetFromStartTime '-5' is no count of minutes; skipped",
                "9: semanticSegments[0].timelinePath[6] has no time; skipped",
                "12: semanticSegments[1] has no startTime; skipped",
                "13: semanticSegments[2]: visit has no topCandidate.placeLocation; skipped",
                "14: semanticSegments[3]: visit's placeLocation is no latitude, longitude; skipped",
                "18: semanticSegments[7] is malformed JSON; skipped",
                "19: semanticSegments[8] is not a segment (a JSON object); skipped",
                "22: rawSignals[0].position has no LatLng; skipped",
                "23: rawSignals[1].position has no timestamp; skipped",
                "24: rawSignals[2].position has a negative accuracyMeters (-3.0); skipped",
            ])
        #expect(
            decoder.statistics.ignored == [
                "activity without a position": 1, "timelineMemory": 1, "wifiScan": 1, "activityRecord": 1,
            ])
        TakeoutDecoderTests.expectSameInChunks(text)
    }

    @Test("an element over the length limit is dropped without holding it, named as iOS's array names it; the next is read")
    func overlongElement() {
        let padding = String(repeating: "x", count: 300)
        let text = """
            [{"startTime": "2024-01-01T10:00:00Z", "visit": {"topCandidate": {"placeLocation": "geo:1,2", "placeID": "\(padding)"}}},
             {"startTime": "2024-01-01T11:00:00Z", "visit": {"topCandidate": {"placeLocation": "geo:3,4"}}}]
            """
        let options = FeedDecodingOptions(maximumLineLength: 200)
        let batch = decode(text, format: .timeline, options: options)
        #expect(batch.fixes.map(\.coordinate) == [Coordinate(latitude: 3, longitude: 4)])
        #expect(batch.diagnostics.map(\.message) == ["[0] is longer than the longest element kept; skipped"])
        TakeoutDecoderTests.expectSameInChunks(text, options: options)
    }

    @Test("a file cut short keeps the elements before the cut; JSON that is no Timeline export says so")
    func cutShortAndOtherJSON() {
        let cut =
            #"[{"startTime":"2024-01-01T10:00:00Z","visit":{"topCandidate":{"placeLocation":"geo:1,2"}}},{"startTime":"2024-"#
        let batch = decode(cut, format: nil)
        #expect(batch.fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
        #expect(batch.diagnostics.map(\.code) == [.truncated])
        #expect(batch.diagnostics.first?.message.contains("after 1 elements (cut short?)") == true)
        TakeoutDecoderTests.expectSameInChunks(cut)
        let other = decode(#"{"timelineObjects":[]}"#, format: .timeline)
        #expect(
            other.diagnostics.map(\.message) == ["no \"semanticSegments\" or \"rawSignals\" array: not Google's Timeline export"])
        let trailing = decode(#"{"rawSignals":[]} x"#, format: .timeline)
        #expect(trailing.diagnostics.map(\.code) == [.badJSON])
    }

    @Test("the format is told from the first key of the object or of the array's first segment, however the bytes arrive")
    func sniffing() {
        for text in [
            #"{"semanticSegments":[]}"#, "\u{FEFF}{\n  \"rawSignals\" : [ ]\n}", #"{ "userLocationProfile" : {} }"#,
            "[\n  {\n    \"endTime\" : \"2023-08-27T17:04:26.999-05:00\"}]", #"[{"startTime":"2024-01-01T00:00:00Z"}]"#,
        ] {
            let bytes = Array(text.utf8)
            #expect(FeedSniffer.detect(bytes, isComplete: true) == .timeline, "\(text)")
            #expect(FeedSniffer.detect(Array(bytes.prefix(6)), isComplete: false) == nil, "\(text), unfinished key")
            #expect(NotAFeed.identify(bytes, isWholeFile: true) == nil, "\(text)")
        }
        #expect(FeedSniffer.detect(Array(#"{"locations":[]}"#.utf8), isComplete: true) == .takeout)
        #expect(FeedSniffer.detect(Array(#"[{"id":1}]"#.utf8), isComplete: true) != .timeline)
        #expect(NotAFeed.identify(Array(#"{"semanticSegmentsX":[]}"#.utf8), isWholeFile: true) == .otherJSON)
    }
}
