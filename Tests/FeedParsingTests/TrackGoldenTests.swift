import FeedParsing
import Foundation
import TestSupport
import Testing

/// The bundled recordings in Tracks/ decode to their committed
/// `<name>.expected.jsonl` (the `decode --json` lines). Re-record with
/// `RECORD_TRACKS=1 swift test --filter TrackGoldenTests`: the files are
/// rewritten and the test fails, so that a re-recording is never silent
/// and every changed golden gets a look and a reason in the commit.
@Suite("Tracks/ golden files")
struct TrackGoldenTests {
    static let recordings: [String] = {
        let fileManager = FileManager.default
        var paths: [String] = []
        for folder in ["nmea", "gpx", "csv", "kml", "tcx", "fit", "takeout", "timeline"] {
            let directory = RepositoryPaths.tracks + "/" + folder
            for name in (try? fileManager.contentsOfDirectory(atPath: directory)) ?? []
            where !name.contains(".expected.") && !name.hasPrefix(".") {
                paths.append(folder + "/" + name)
            }
        }
        return paths.sorted()
    }()

    @Test("Tracks/ holds a recording of every file format: NMEA, GPX, CSV, KML, TCX, FIT and Google's two histories")
    func bundled() {
        #expect(Self.recordings.contains { $0.hasPrefix("timeline/") })
        #expect(Self.recordings.contains { $0.hasPrefix("takeout/") })
        #expect(Self.recordings.contains { $0.hasPrefix("fit/") })
        #expect(Self.recordings.contains { $0.hasPrefix("tcx/") })
        #expect(Self.recordings.contains { $0.hasPrefix("kml/") })
        #expect(Self.recordings.contains { $0.hasPrefix("nmea/") })
        #expect(Self.recordings.contains { $0.hasPrefix("gpx/") })
        #expect(Self.recordings.contains { $0.hasPrefix("csv/") })
    }

    @Test("each recording decodes to its expected JSON lines", arguments: recordings)
    func golden(recording: String) throws {
        let path = RepositoryPaths.track(recording)
        let batch = decode(try readBytes(path), format: nil)
        var output: [UInt8] = []
        for fix in batch.fixes { FixJSONEncoder.append(fix, to: &output) }
        let expectedPath = path + ".expected.jsonl"
        try Golden.expect(String(decoding: output, as: UTF8.self), matches: expectedPath, suite: "TrackGoldenTests")
        #expect(!batch.fixes.isEmpty)
    }
}
