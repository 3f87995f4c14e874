import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

@Suite("Google Takeout location history decoder")
struct TakeoutDecoderTests {
    /// Expects `text` to decode to the same fixes and diagnostics (codes,
    /// messages, lines, offsets) in chunks of any size as in one.
    static func expectSameInChunks(
        _ text: String, options: FeedDecodingOptions = .init(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let bytes = Array(text.utf8)
        let whole = decode(bytes, format: nil, options: options)
        for size in [1, 2, 7, 64] {
            let chunked = decode(bytes, format: nil, chunkSizes: repeatElement(size, count: bytes.count), options: options)
            #expect(chunked.fixes == whole.fixes, "chunks of \(size)", sourceLocation: sourceLocation)
            #expect(chunked.diagnostics == whole.diagnostics, "chunks of \(size)", sourceLocation: sourceLocation)
        }
    }

    /// The three documents of google_takeout_parser's `tests/test_json.py`
    /// (`test_location_old`, `_new`, `_2024`; MIT, Tracks/licenses), with
    /// the values its tests expect of them.
    static let referenceDocuments = [
        #"{"locations": [{"timestampMs": "1512947698030", "latitudeE7": 351324213, "longitudeE7": -1122434441, "accuracy": 10}]}"#,
        #"{"locations": [{"latitudeE7": 351324213, "longitudeE7": -1122434441, "accuracy": 10, "deviceTag": -8024144696862913506, "deviceDesignation": "PRIMARY", "timestamp": "2017-12-10T23:14:58.030Z"}]}"#,
        #"{"locations":[{"latitudeE7":351324213,"longitudeE7":-1122434441,"accuracy":10,"activity":[{"activity":[{"type":"UNKNOWN","confidence":65},{"type":"IN_VEHICLE","confidence":27},{"type":"STILL","confidence":6},{"type":"ON_BICYCLE","confidence":2}],"timestamp":"2014-07-18T15:00:04.403Z"}],"source":"WIFI","deviceTag":1978796627,"timestamp":"2014-07-18T14:59:59.914Z"}]}"#,
    ]

    @Test("google_takeout_parser's own examples read as its tests expect, nested activity times passed over")
    func referenceExamples() throws {
        var fixes: [Fix] = []
        for document in Self.referenceDocuments {
            let batch = decode(document, format: nil)
            #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
            fixes += batch.fixes
        }
        try #require(fixes.count == 3)
        for fix in fixes {
            #expect(fix.coordinate == Coordinate(latitude: 35.1324213, longitude: -112.2434441))
            #expect(fix.accuracy == 10)
        }
        // The reference reads timestampMs to the whole second (23:14:58); the milliseconds are the record's.
        #expect(
            fixes.map { $0.time.map(RFC3339.format) } == [
                "2017-12-10T23:14:58.030Z", "2017-12-10T23:14:58.030Z", "2014-07-18T14:59:59.914Z",
            ])
        #expect(fixes.map(\.device) == [nil, "-8024144696862913506", "1978796627"])
    }

    @Test("Dawarich's records.json reads as google_takeout_parser reads it")
    func dawarichRecords() throws {
        let path = RepositoryPaths.track("takeout/dawarich-records.json")
        let batch = decode(try readBytes(path), format: nil)
        #expect(batch.diagnostics.isEmpty)
        let reference = try String(contentsOfFile: path + ".expected.google_takeout_parser.csv", encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        try #require(batch.fixes.count == reference.count)
        for (fix, row) in zip(batch.fixes, reference) {
            #expect(fix.coordinate.latitude == Double(row[0]))
            #expect(fix.coordinate.longitude == Double(row[1]))
            #expect(fix.accuracy == Double(row[2]))
            #expect((fix.device ?? "") == row[3])
            // Python's isoformat: microseconds and +00:00.
            let time = try #require(fix.time.map(RFC3339.format))
            #expect(time.dropLast() + "000+00:00" == row[4])
        }
    }

    @Test("a pretty-printed history with every member, in any chunking")
    func everyMember() throws {
        let text = """
            {
              "locations" : [ {
                "timestampMs" : "1396727143852",
                "latitudeE7" : 408179548,
                "longitudeE7" : -739620148,
                "accuracy" : 114,
                "velocity" : 3,
                "heading" : 270,
                "altitude" : 12,
                "activity" : [ { "timestampMs" : "1", "latitudeE7" : 1, "extra" : "}]{[\\"" } ]
              }, {
                "timestampMs" : 1396727203852,
                "latitudeE7" : 408179548,
                "longitudeE7" : -739620148,
                "velocity" : -1,
                "heading" : -1
              } ]
            }
            """
        let whole = decode(text, format: nil)
        #expect(whole.diagnostics.isEmpty, "\(whole.diagnostics)")
        try #require(whole.fixes.count == 2)
        let first = whole.fixes[0]
        #expect(first.time.map(RFC3339.format) == "2014-04-05T19:45:43.852Z")
        #expect(first.coordinate == Coordinate(latitude: 40.8179548, longitude: -73.9620148))
        #expect(first.speed == 3 && first.course == 270 && first.elevation == 12 && first.accuracy == 114)
        // A number where older exports wrote a string; -1 for an unknown speed and heading.
        #expect(whole.fixes[1].time.map(RFC3339.format) == "2014-04-05T19:46:43.852Z")
        #expect(whole.fixes[1].speed == nil && whole.fixes[1].course == nil)
        Self.expectSameInChunks(text)
    }

    /// A history of one record a second from `seconds`, in the order given.
    static func history(seconds: [Int?]) -> String {
        let records = seconds.enumerated().map { index, second in
            let time = second.map { #""timestampMs":"\#($0 * 1000)","# } ?? ""
            return #"{\#(time)"latitudeE7":\#(index),"longitudeE7":0}"#
        }
        return #"{"locations":["# + records.joined(separator: ",") + "]}"
    }

    @Test("a history listed newest first is handed on oldest first; one that only starts out of order keeps the file's order")
    func newestFirst() throws {
        let descending = decode(Self.history(seconds: [20, 19, nil, 17, 16, 15, 14, 13, 12, 11, 10]), format: nil)
        #expect(descending.diagnostics.map(\.code) == [.missingField])
        #expect(descending.fixes.map(\.coordinate.latitude) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map { Double($0) / 1e7 })
        let short = decode(Self.history(seconds: [2, 1]), format: nil)
        #expect(short.fixes.map { $0.time?.nanoseconds } == [1_000_000_000, 2_000_000_000])
        let shuffledStart = Self.history(seconds: [5, 3, 4, 6, 7, 8, 9, 10, 11, 12])
        #expect(decode(shuffledStart, format: nil).fixes.map(\.coordinate.latitude) == (0..<10).map { Double($0) / 1e7 })
        for text in [Self.history(seconds: [20, 19, nil, 17, 16, 15, 14, 13, 12, 11, 10]), shuffledStart] {
            Self.expectSameInChunks(text)
        }
    }

    @Test("coordinates that overflowed 32 bits in early exports are read as the signed values they were")
    func overflowedCoordinates() throws {
        // -33.8688° as an unsigned 32-bit E7 (2³² - 338 688 000), and 151.2093° kept.
        let text = #"{"locations":[{"timestampMs":"1300000000000","latitudeE7":3956279296,"longitudeE7":1512093000}]}"#
        let batch = decode(text, format: .takeout)
        #expect(batch.diagnostics.isEmpty)
        #expect(batch.fixes.map(\.coordinate) == [Coordinate(latitude: -33.8688, longitude: 151.2093)])
    }

    @Test("a bad record is reported with its index and line and skipped; the others are kept")
    func badRecords() throws {
        let text = """
            {"locations": [
              {"timestamp": "2020-01-01T00:00:00Z", "latitudeE7": 1, "longitudeE7": 2},
              {"timestamp": "2020-01-01T00:00:01Z", "longitudeE7": 2},
              {"timestamp": "2020-01-01T00:00:02Z", "latitudeE7": 1900000000, "longitudeE7": 2},
              {"timestamp": "2020-01-01T00:00:03Z", "latitudeE7": 1, "longitudeE7": 2, "accuracy": -5},
              {"timestamp": "yesterday", "latitudeE7": 1, "longitudeE7": 2},
              {"latitudeE7": 1, "longitudeE7": 2},
              {"timestamp": "2020-01-01T00:00:06Z", "latitudeE7": 1 "longitudeE7": 2},
              null,
              "text, with a comma",
              {"timestamp": "2020-01-01T00:00:09Z", "latitudeE7": 3, "longitudeE7": 4}
            ]}
            """
        let batch = decode(text, format: nil)
        #expect(batch.fixes.map(\.coordinate.latitude) == [1e-7, 1e-7, 1e-7, 3e-7])
        #expect(batch.fixes.map { $0.time == nil } == [false, true, true, false])
        let messages = batch.diagnostics.map { "\($0.location.line): \($0.message)" }
        #expect(
            messages == [
                "3: locations[1] has no latitudeE7 and longitudeE7; skipped",
                "4: locations[2] has latitudeE7 1900000000, longitudeE7 2: out of range; skipped",
                "5: locations[3] has a negative accuracy (-5.0); skipped",
                "6: locations[4]: timestamp 'yesterday' is not RFC 3339; the fix is kept without a time",
                "7: locations[5] has no timestamp; the fix is kept without a time",
                "8: locations[6] is malformed JSON; skipped",
                "9: locations[7] is not a location record (a JSON object); skipped",
                "10: locations[8] is not a location record (a JSON object); skipped",
            ])
        Self.expectSameInChunks(text)
    }

    @Test("a record over the length limit is dropped without holding it; the next one is read")
    func overlongRecord() {
        let padding = String(repeating: "x", count: 300)
        let text =
            #"{"locations":[{"latitudeE7":1,"longitudeE7":2,"note":"\#(padding)"},{"timestampMs":"0","latitudeE7":3,"longitudeE7":4}]}"#
        let options = FeedDecodingOptions(maximumLineLength: 200)
        let batch = decode(text, format: .takeout, options: options)
        #expect(batch.fixes.map(\.coordinate.latitude) == [3e-7])
        #expect(batch.diagnostics.map(\.message) == ["locations[0] is longer than the longest record kept; skipped"])
        Self.expectSameInChunks(text, options: options)
    }

    @Test("a file cut short keeps the records before the cut and says so")
    func cutShort() {
        let text = #"{"locations":[{"timestampMs":"0","latitudeE7":1,"longitudeE7":2},{"latitudeE7":3,"longi"#
        let batch = decode(text, format: nil)
        #expect(batch.fixes.map(\.coordinate.latitude) == [1e-7])
        #expect(batch.diagnostics.map(\.code) == [.truncated])
        #expect(batch.diagnostics.first?.message.contains("after 1 records (cut short?)") == true)
        Self.expectSameInChunks(text)
    }

    @Test("JSON that is no location history says what is missing; bytes after the document stop the reading")
    func notAHistory() {
        let other = decode(#"{"timelineObjects":[]}"#, format: .takeout)
        #expect(other.fixes.isEmpty)
        #expect(
            other.diagnostics.map(\.message) == [
                "no \"locations\" array: not Google Takeout's location history (Records.json)"
            ])
        let trailing = decode(
            "{\"locations\":[{\"timestampMs\":\"0\",\"latitudeE7\":1,\"longitudeE7\":2}]}\n{\"locations\":[]}", format: .takeout)
        #expect(trailing.fixes.count == 1)
        #expect(trailing.diagnostics.map { "\($0.code) \($0.location.line)" } == ["badJSON 2"])
        Self.expectSameInChunks("{\"locations\":[{\"timestampMs\":\"0\",\"latitudeE7\":1,\"longitudeE7\":2}]}\n{\"x\":1}")
        let array = decode("[1, 2]", format: .takeout)
        #expect(array.diagnostics.map(\.code) == [.badJSON])
    }

    @Test("the format is told from the first key, however the bytes arrive; other JSON is not taken for it")
    func sniffing() {
        for text in [
            #"{"locations":[]}"#, "\u{FEFF}{\n  \"locations\" : [ ]\n}", #"{ "somePointsHidden" : false, "locations" : [] }"#,
        ] {
            let bytes = Array(text.utf8)
            #expect(FeedSniffer.detect(bytes, isComplete: true) == .takeout, "\(text)")
            #expect(FeedSniffer.detect(Array(bytes.prefix(5)), isComplete: false) == nil, "\(text), unfinished key")
            #expect(NotAFeed.identify(bytes, isWholeFile: true) == nil)
        }
        #expect(FeedSniffer.detect(Array(#"{"class":"TPV","mode":2,"lat":1,"lon":2}"#.utf8), isComplete: true) == .gpsd)
        #expect(NotAFeed.identify(Array(#"{"locationsX":[]}"#.utf8), isWholeFile: true) == .otherJSON)
    }
}
