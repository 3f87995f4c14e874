import Foundation
import TestSupport
import Testing

/// `bench --feed … --shard I/N` (issue 17): what one node of a job array
/// does, measured. Nothing here asserts a time or a rate; the counts are
/// checked against the whole run's.
@Suite("repeat-sim bench --shard: one node of a job array")
struct BenchShardTests {
    /// Five copies of the Višnjan drive, each a device named after its file,
    /// against its errands: 520 fixes, 140 transitions, 8 reminders.
    let workload: [String]
    let directory: String

    init() throws {
        directory = temporaryDirectory("bench-shard")
        var feeds: [String] = []
        for car in 1...5 {
            let path = directory + "/car-\(car).gpx"
            try FileManager.default.copyItem(atPath: RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), toPath: path)
            feeds.append(path)
        }
        workload =
            ["bench", "--feed"] + feeds + [
                "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
                "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--runs", "1",
            ]
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("the shards' devices and transitions add up to the whole run's; each decodes every fix; reminders are null")
    func shardsAddUp() throws {
        let whole = try RepeatSimBinary.run(workload + ["--json"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let run = try object(whole.stdout)
        #expect(run["shard"] is NSNull)
        #expect(run["devices"] as? Int == 5)
        #expect(run["transitions"] as? Int == 140)
        #expect(run["reminders"] as? Int == 8)

        var devices: [Int] = []
        var transitions = 0
        for index in 0..<3 {
            let result = try RepeatSimBinary.run(workload + ["--json", "--shard", "\(index)/3"])
            #expect(result.status == 0, "\(result.stderr)")
            let shard = try object(result.stdout)
            #expect(shard["shard"] as? String == "\(index)/3")
            #expect(shard["fixes"] as? Int == 520, "the whole feed's, read or left out")
            #expect(shard["reminders"] is NSNull)
            #expect((shard["pipeline_vs_decode"] as? Double ?? 0) > 0)
            #expect(shard["bruteforce_agrees"] as? Bool == true)
            let notes = try #require(shard["notes"] as? [String])
            #expect(notes.contains { $0.hasPrefix("reminders: shard \(index)/3 runs the per-device stages only") })
            devices.append(try #require(shard["devices"] as? Int))
            transitions += try #require(shard["transitions"] as? Int)
        }
        #expect(devices.reduce(0, +) == 5)
        #expect(devices.filter { $0 > 0 }.count >= 2, "the hash spreads five devices over the shards: \(devices)")
        #expect(transitions == 140)
    }

    @Test("a shard counts the same devices and transitions on one thread and on three")
    func sameOnEveryThreadCount() throws {
        var counts: [[Int]] = []
        for jobs in ["1", "3"] {
            let result = try RepeatSimBinary.run(workload + ["--json", "--shard", "1/3", "--jobs", jobs])
            #expect(result.status == 0, "\(result.stderr)")
            let shard = try object(result.stdout)
            counts.append([shard["devices"] as? Int ?? -1, shard["transitions"] as? Int ?? -1])
        }
        #expect(counts[0] == counts[1])
        #expect(counts[0][0] > 0)
    }

    @Test("the text and Markdown name the shard; a baseline of another shard is noted")
    func reportsNameTheShard() throws {
        let text = try RepeatSimBinary.run(workload + ["--shard", "0/3"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("car-1.gpx, car-2.gpx, car-3.gpx, car-4.gpx, car-5.gpx: 520 fixes decoded, the "))
        #expect(text.stdout.contains(" of shard 0/3 evaluated, 13 regions;"))
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("reminders ") && $0.hasSuffix(" n/a") })

        let saved = directory + "/whole.json"
        let whole = try RepeatSimBinary.run(workload + ["--save", saved])
        #expect(whole.status == 0, "\(whole.stderr)")
        let other = try RepeatSimBinary.run(workload + ["--shard", "2/3", "--baseline", saved, "--json"])
        let caveats = try #require((try object(other.stdout)["baseline"] as? [String: Any])?["caveats"] as? [String])
        #expect(
            caveats.contains(
                "shard: 2/3 here, the whole run in the baseline (a shard's figures per fix measure other work)"))
        #expect(other.stderr.contains("bench: note: shard: 2/3 here, the whole run in the baseline"))

        let shardSaved = directory + "/shard-2.json"
        let again = try RepeatSimBinary.run(workload + ["--shard", "2/3", "--save", shardSaved])
        #expect(again.status == 0, "\(again.stderr)")
        let same = try RepeatSimBinary.run(workload + ["--shard", "2/3", "--baseline", shardSaved, "--markdown"])
        #expect(!same.stdout.contains("shard: "), "the same shard is no caveat")
        #expect(same.stdout.contains("520 fixes decoded, the "))
    }

    @Test("--shard without --feed, or out of range, is a usage error naming the flag")
    func usageErrors() throws {
        let alone = try RepeatSimBinary.run(["bench", "--shard", "0/2"])
        #expect(alone.status == 1)
        #expect(alone.stderr.contains("--shard needs --feed FILE"))
        let outside = try RepeatSimBinary.run(workload + ["--shard", "3/3"])
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("--shard takes I/N with N at least 1 and I from 0 to N-1"))
    }

    @Test("merge refuses bench reports, sharded or not, naming the file")
    func mergeRefusesReports() throws {
        var paths: [String] = []
        for index in 0..<2 {
            let path = directory + "/report-\(index).json"
            let result = try RepeatSimBinary.run(workload + ["--json", "--shard", "\(index)/2", "--save", path])
            #expect(result.status == 0, "\(result.stderr)")
            paths.append(path)
        }
        let merged = try RepeatSimBinary.run(["merge"] + paths)
        #expect(merged.status == 1)
        #expect(merged.stdout.isEmpty)
        #expect(
            merged.stderr.contains("\(paths[0]) is a report of `bench --shard 0/2`: a bench's figures are one machine's timings"))

        let whole = directory + "/report-whole.json"
        #expect(try RepeatSimBinary.run(workload + ["--save", whole]).status == 0)
        let unsharded = try RepeatSimBinary.run(["merge", whole])
        #expect(unsharded.status == 1)
        #expect(unsharded.stderr.contains("\(whole) is a report of `bench`: "))
    }
}
