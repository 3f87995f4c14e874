import Foundation
import TestSupport
import Testing

/// Google's on-device Timeline export (`Timeline.json`) as a user feeds it
/// to `decode` and `replay`.
@Suite("Google's on-device Timeline export as a feed")
struct TimelineFeedTests {
    static let fixtures = [
        "dawarich-location-history.json", "dawarich-timeline-new-format.json", "dawarich-semantic-and-raw-signals.json",
    ].map { RepositoryPaths.track("timeline/" + $0) }

    static let homeAndShop = "id,lat,lon,radius\nshop,52.5300,13.4200,80\nhome,52.5200,13.4000,80\n"

    /// An Android export in which the phone stays at the shop from 10:00 to
    /// 10:40 (local time, UTC+1) and walks home from 10:30: Google's visit
    /// ends ten minutes after the path away from it began, as real exports'
    /// do. `iOS` writes the same as iOS's array of segments.
    static func shopThenHome(iOS: Bool = false) -> String {
        if iOS {
            return """
                [
                  {"endTime" : "2025-03-01T10:40:00.000+01:00", "startTime" : "2025-03-01T10:00:00.000+01:00",
                   "visit" : {"hierarchyLevel" : "0", "topCandidate" : {"probability" : "0.8", "semanticType" : "Unknown",
                     "placeID" : "ChIJshop", "placeLocation" : "geo:52.530000,13.420000"}, "probability" : "0.9"}},
                  {"endTime" : "2025-03-01T11:30:00.000Z", "startTime" : "2025-03-01T09:30:00.000Z",
                   "timelinePath" : [
                     {"point" : "geo:52.525000,13.410000", "durationMinutesOffsetFromStartTime" : "0"},
                     {"point" : "geo:52.520000,13.400000", "durationMinutesOffsetFromStartTime" : "15"}]}
                ]
                """
        }
        return """
            {
              "semanticSegments": [
                {"startTime": "2025-03-01T10:00:00.000+01:00", "endTime": "2025-03-01T10:40:00.000+01:00",
                 "visit": {"hierarchyLevel": 0, "probability": 0.9,
                   "topCandidate": {"placeId": "ChIJshop", "semanticType": "UNKNOWN", "probability": 0.8,
                     "placeLocation": {"latLng": "52.5300000°, 13.4200000°"}}}},
                {"startTime": "2025-03-01T10:30:00.000+01:00", "endTime": "2025-03-01T12:30:00.000+01:00",
                 "timelinePath": [
                   {"point": "52.5250000°, 13.4100000°", "time": "2025-03-01T10:30:00.000+01:00"},
                   {"point": "52.5200000°, 13.4000000°", "time": "2025-03-01T10:45:00.000+01:00"}]}
              ],
              "rawSignals": [
                {"activityRecord": {"probableActivities": [{"type": "STILL", "confidence": 0.9}], "timestamp": "2025-03-01T09:50:00.000Z"}},
                {"position": {"LatLng": "52.5200100°, 13.4000100°", "accuracyMeters": 12, "altitudeMeters": 40.0,
                  "source": "WIFI", "timestamp": "2025-03-01T09:50:00.000Z", "speedMetersPerSecond": 0.0}}
              ],
              "userLocationProfile": {"frequentPlaces": [{"placeId": "ChIJhome", "placeLocation": "52.52, 13.4", "label": "HOME"}]}
            }
            """
    }

    /// Writes `text` to `name` in `directory`; its path.
    func written(_ directory: String, _ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("decode reads both forms by their content, prints the golden lines, and says what it passed over")
    func decode() throws {
        for fixture in Self.fixtures {
            let result = try RepeatSimBinary.run(["decode", fixture, "--json"])
            #expect(result.status == 0)
            #expect(result.stdout == (try String(contentsOfFile: fixture + ".expected.jsonl", encoding: .utf8)))
        }
        let ios = try RepeatSimBinary.run(["decode", Self.fixtures[0]])
        #expect(
            ios.stderr.hasSuffix(
                "dawarich-location-history.json (timeline): 9 fixes, 0 skipped; ignored: repeated position 3, timelineMemory 1\n"),
            "\(ios.stderr)")
    }

    @Test("a visit is a stay: --dwell sees it, and the path Google began before the visit's end is no return")
    func visitIsAStay() throws {
        let directory = temporaryDirectory("timeline")
        let regions = try written(directory, "places.csv", Self.homeAndShop)
        var outputs: [String] = []
        for iOS in [false, true] {
            let feed = try written(directory, "Timeline.json", Self.shopThenHome(iOS: iOS))
            let result = try RepeatSimBinary.run([
                "replay", feed, "--regions", regions, "--transitions", "--dwell", "10m", "--json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let transitions = result.stdout.split(separator: "\n").map { line in
                ["kind", "time", "region"].map { key in
                    line.firstRange(of: "\"\(key)\":\"").map { line[$0.upperBound...].prefix { $0 != "\"" } } ?? ""
                }.joined(separator: " ")
            }
            #expect(
                transitions == [
                    "enter 2025-03-01T09:00:00.000Z shop", "dwell 2025-03-01T09:29:59.999Z shop",
                    "exit 2025-03-01T09:30:00.000Z shop", "enter 2025-03-01T09:45:00.000Z home",
                ], "iOS: \(iOS)")
            outputs.append(result.stdout)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test("--jobs 2 and 7 and 4 shards + merge print what one thread prints over the fixtures and two exports")
    func threadsAndShards() throws {
        let directory = temporaryDirectory("timeline")
        let arguments =
            Self.fixtures + [
                try written(directory, "phone.json", Self.shopThenHome()),
                try written(directory, "iphone.json", Self.shopThenHome(iOS: true)),
                "--regions", try written(directory, "places.csv", Self.homeAndShop), "--transitions",
            ]
        let runs = ParallelReplayTests()
        let reference = try runs.replay(arguments, ["--jobs", "1"])
        #expect(reference.stdout.contains(#""device":"phone.json""#) && reference.stdout.contains(#""device":"iphone.json""#))
        try runs.expectSameAsOneThread(arguments, reference: reference)
    }

    @Test("a bad point is reported by file, line and name, and the others are kept")
    func badPoint() throws {
        let text = """
            {"semanticSegments": [
              {"startTime": "2025-03-01T10:00:00Z", "endTime": "2025-03-01T11:00:00Z", "timelinePath": [
                {"point": "52.53°, 13.42°", "time": "2025-03-01T10:05:00Z"},
                {"point": "52.53°", "time": "2025-03-01T10:06:00Z"}
              ]}
            ]}
            """
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(text.utf8))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(
            result.stderr.contains(
                "<stdin>:4: badField: semanticSegments[0].timelinePath[1]: point '52.53°' is no latitude, longitude; skipped"),
            "\(result.stderr)")
        #expect(result.stderr.hasSuffix("<stdin> (timeline): 1 fix, 1 skipped (badField 1)\n"), "\(result.stderr)")
    }

    @Test("an export cut short keeps what came before the cut, and the message says where: at the end of the input")
    func cutShort() throws {
        let text =
            #"[{"startTime": "2025-03-01T10:00:00Z", "visit": {"topCandidate": {"placeLocation": "geo:52.53,13.42"}}},"#
            + #" {"st"#
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(text.utf8))
        #expect(result.stdout == #"{"time":"2025-03-01T10:00:00Z","lat":52.53,"lon":13.42}"# + "\n")
        #expect(
            result.stderr.hasPrefix(
                "<stdin>:end of input: truncated: the file ends inside its JSON document, after 1 elements (cut short?)"),
            "\(result.stderr)")
    }
}
