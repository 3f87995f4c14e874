import Foundation
import TestSupport
import Testing

/// Google Takeout's raw location history (`Records.json`) as a user feeds
/// it to `decode` and `replay`.
@Suite("Google Takeout's location history as a feed")
struct TakeoutFeedTests {
    static let records = RepositoryPaths.track("takeout/dawarich-records.json")

    /// A Records.json in which a phone (tag 111) walks from home to the
    /// shop, a minute a step, while a tablet (tag 222) reports from home
    /// half a minute after each of the phone's records; `tagged: false`
    /// leaves the tags out.
    static func phoneAndTablet(tagged: Bool) -> String {
        var records: [String] = []
        for step in 0...10 {
            let milliseconds = 1_700_000_000_000 + step * 60_000
            let phone = (525_200_000 + step * 10_000, 134_000_000 + step * 20_000)
            for (tag, position, time) in [(111, phone, milliseconds), (222, (525_200_000, 134_000_000), milliseconds + 30_000)] {
                let device = tagged ? #", "deviceTag" : \#(tag)"# : ""
                records.append(
                    #"  { "timestampMs" : "\#(time)", "latitudeE7" : \#(position.0), "longitudeE7" : \#(position.1), "accuracy" : 10\#(device) }"#
                )
            }
        }
        return "{\n  \"locations\" : [\n" + records.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Writes `text` to `name` in `directory`; its path.
    func written(_ directory: String, _ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let homeAndShop = "id,lat,lon,radius\nshop,52.5300,13.4200,80\nhome,52.5200,13.4000,80\n"

    @Test("decode reads a Records.json by its content, and says what it read")
    func decode() throws {
        let result = try RepeatSimBinary.run(["decode", Self.records, "--json"])
        #expect(result.status == 0)
        #expect(result.stdout == (try String(contentsOfFile: Self.records + ".expected.jsonl", encoding: .utf8)))
        #expect(result.stderr.hasSuffix("dawarich-records.json (takeout): 3 fixes, 0 skipped\n"), "\(result.stderr)")
    }

    @Test("each deviceTag is a device: a tablet left at home does not make the phone flap between home and the shop")
    func devicesByTag() throws {
        let directory = temporaryDirectory("takeout")
        let regions = try written(directory, "places.csv", Self.homeAndShop)
        var summaries: [String] = []
        for tagged in [true, false] {
            let feed = try written(directory, "Records.json", Self.phoneAndTablet(tagged: tagged))
            let result = try RepeatSimBinary.run(["replay", feed, "--regions", regions, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let reminders = result.stdout.split(separator: "\n")
            #expect(reminders.count == 2)
            if tagged {
                #expect(reminders.allSatisfy { $0.contains(#""device":"111""#) })
                #expect(reminders.last?.contains(#""region":"shop""#) == true)
            }
            summaries.append(result.stderr)
        }
        #expect(summaries[0].contains("22 fixes evaluated from 2 devices, 4 transitions"), "\(summaries[0])")
        #expect(summaries[1].contains("22 fixes evaluated from 1 device, 23 transitions"), "\(summaries[1])")
    }

    @Test("--jobs 2 and 7 and 4 shards + merge print what one thread prints: a shard reads each history for its devices")
    func threadsAndShards() throws {
        let directory = temporaryDirectory("takeout")
        // Two files, whose fixes a shard would take for the file's name were its devices not the tags'.
        let household = Self.phoneAndTablet(tagged: true)
        let arguments = [
            try written(directory, "Records.json", household),
            try written(
                directory, "Records-2.json",
                household.replacingOccurrences(of: ": 111", with: ": 333").replacingOccurrences(of: ": 222", with: ": 444")),
            "--regions", try written(directory, "places.csv", Self.homeAndShop), "--transitions",
        ]
        let runs = ParallelReplayTests()
        let reference = try runs.replay(arguments, ["--jobs", "1"])
        #expect(reference.stdout.contains(#""device":"111""#) && reference.stdout.contains(#""device":"222""#))
        try runs.expectSameAsOneThread(arguments, reference: reference)
    }

    @Test("a history listed newest first, as older exports list it, replays oldest first: as its forward copy does")
    func newestFirst() throws {
        let directory = temporaryDirectory("takeout")
        let regions = try written(directory, "places.csv", Self.homeAndShop)
        let forward = Self.phoneAndTablet(tagged: true)
        let lines = forward.split(separator: "\n", omittingEmptySubsequences: false)
        let records = lines.filter { $0.hasPrefix("  {") }.map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
        let reversed = "{\n  \"locations\" : [\n" + records.reversed().joined(separator: ",\n") + "\n  ]\n}\n"
        let backwards = try RepeatSimBinary.run(
            ["replay", try written(directory, "Records.json", reversed), "--regions", regions, "--json"])
        let inOrder = try RepeatSimBinary.run(
            ["replay", try written(directory, "forward.json", forward), "--regions", regions, "--json"])
        #expect(backwards.status == 0)
        #expect(!backwards.stderr.contains("reorder window"), "\(backwards.stderr)")
        #expect(backwards.stdout == inOrder.stdout)
        #expect(backwards.stdout.split(separator: "\n").count == 2)
    }

    @Test("a bad record is reported by file, line and index, and the others are kept")
    func badRecord() throws {
        let text = """
            {"locations": [
              {"timestamp": "2025-03-01T10:00:00Z", "latitudeE7": 525300000, "longitudeE7": 134200000},
              {"timestamp": "2025-03-01T10:01:00Z", "longitudeE7": 134200000}
            ]}
            """
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(text.utf8))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(
            result.stderr.contains("<stdin>:3: missingField: locations[1] has no latitudeE7 and longitudeE7; skipped"),
            "\(result.stderr)")
        #expect(result.stderr.hasSuffix("<stdin> (takeout): 1 fix, 1 skipped (missingField 1)\n"), "\(result.stderr)")
    }
}
