import Dispatch
import Foundation
import GeoCore
import Synchronization
import TestSupport
import Testing

/// `evaluate --shard I/N` + `merge` print exactly what the evaluate
/// without `--shard` prints (rows, `--expect` marks, the summary's counts,
/// the exit status), on generated fleets, a single device whose truth has
/// another name, feeds named after their files, hand-labelled events and
/// the pooled runs of a scenario.
@Suite("evaluate across shards")
struct ShardedEvaluateTests {
    /// What a run printed: stdout, the summary up to its elapsed time, and
    /// the exit status.
    struct Printed: Equatable, CustomStringConvertible {
        var stdout: String
        var summary: String
        var status: Int32
        var description: String { "status \(status), \(summary)\n\(stdout)" }
    }

    /// The `evaluate:` lines of `stderr`, the first up to its elapsed time.
    static func summary(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("evaluate: ") }
        guard let first = lines.first else { return "<no summary in: \(stderr)>" }
        let counts = first.split(separator: ";").dropLast().joined(separator: ";")
        return ([counts] + lines.dropFirst().map(String.init)).joined(separator: "\n")
    }

    /// `evaluate ARGUMENTS…` without `--shard`.
    func unsharded(_ arguments: [String]) throws -> Printed {
        let result = try RepeatSimBinary.run(["evaluate"] + arguments)
        return Printed(stdout: result.stdout, summary: Self.summary(result.stderr), status: result.status)
    }

    /// The `shards` shards of `evaluate ARGUMENTS…` as processes at once,
    /// then `merge` over their files (in reverse order).
    func shardedAndMerged(_ arguments: [String], shards: Int) throws -> Printed {
        let folder = temporaryDirectory("repeat-evaluate-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: shards) { index in
            do {
                let result = try RepeatSimBinary.run(["evaluate"] + arguments + ["--shard", "\(index)/\(shards)"])
                if result.status != 0 || !result.stdout.hasPrefix(#"{"header":"#) {
                    failures.withLock { $0.append("shard \(index): \(result.stderr)") }
                }
                try result.stdout.write(toFile: "\(folder)/part-\(index).jsonl", atomically: true, encoding: .utf8)
            } catch {
                failures.withLock { $0.append("shard \(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let merged = try RepeatSimBinary.run(["merge"] + (0..<shards).reversed().map { "\(folder)/part-\($0).jsonl" })
        return Printed(stdout: merged.stdout, summary: Self.summary(merged.stderr), status: merged.status)
    }

    /// Expects `shards` shards + merge of `arguments` to print the
    /// unsharded run's output, which must have rows.
    func expectSameOutput(_ arguments: [String], shards: [Int], status: Int32 = 0) throws {
        let reference = try unsharded(arguments)
        #expect(reference.status == status, "\(reference)")
        #expect(reference.stdout.contains("\n"), "\(reference)")
        for count in shards {
            let merged = try shardedAndMerged(arguments, shards: count)
            #expect(merged == reference, "\(count) shards + merge")
        }
    }

    /// A fleet of 9 devices on one drive with its truth, and regions along
    /// the route: the feed, truth and regions arguments.
    static func fleet(in folder: String) throws -> [String] {
        let walk = try EvaluateCommandTests.Walk(seed: 21, devices: 9, in: folder)
        return [walk.feed, "--truth", walk.truth, "--regions", walk.regions]
    }

    @Test("a 9-device fleet over a sweep, as JSON and as the table: 1, 2, 4 and 7 shards merge to the same bytes")
    func fleetSweep() throws {
        let folder = temporaryDirectory("repeat-evaluate-fleet")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try Self.fleet(in: folder)
        let sweep = ["--sweep", "hysteresis=0,25", "--sweep", "confirm=1,2", "--sweep", "interval=0,5s"]
        try expectSameOutput(fleet + sweep + ["--json", "--expect", "enter.recall>=0.9"], shards: [1, 2, 4, 7])
        try expectSameOutput(fleet + sweep + ["--expect", "enter.latency_s.p90<=20s"], shards: [4])
    }

    @Test("a shard's lines are the same bytes at --jobs 1, 2 and 5; shards on different --jobs merge together")
    func shardLinesWhateverTheJobs() throws {
        let folder = temporaryDirectory("repeat-evaluate-shard-jobs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try Self.fleet(in: folder) + ["--sweep", "confirm=1,2,3", "--sweep", "interval=0,3s", "--json"]
        var parts: [String] = []
        for (index, jobs) in ["1", "2", "5"].enumerated() {
            var lines: [String: [Substring]] = [:]
            for threads in ["1", "2", "5"] {
                let result = try RepeatSimBinary.run(["evaluate"] + arguments + ["--shard", "\(index)/3", "--jobs", threads])
                #expect(result.status == 0, "\(index)/3 --jobs \(threads): \(result.stderr)")
                let all = result.stdout.split(separator: "\n")
                // Header, the tally (some latencies among its settings'), the end.
                let latencyLists = all.count == 3 ? all[1].components(separatedBy: #""latencies":["#).count - 1 : 0
                let emptyLists = all.count == 3 ? all[1].components(separatedBy: #""latencies":[]"#).count - 1 : 0
                #expect(latencyLists == 12 && emptyLists < 12, "\(index)/3 --jobs \(threads): \(result.stdout)")
                lines[threads] = Array(all.dropFirst())
                if threads == jobs {
                    parts.append("\(folder)/part-\(index).jsonl")
                    try result.stdout.write(toFile: parts[index], atomically: true, encoding: .utf8)
                }
            }
            #expect(lines["2"] == lines["1"] && lines["5"] == lines["1"], "\(index)/3")
        }
        let merged = try RepeatSimBinary.run(["merge"] + parts)
        let reference = try unsharded(arguments + ["--jobs", "1"])
        #expect(merged.status == 0 && merged.stdout == reference.stdout, "\(merged.stderr)")
    }

    @Test("the expectations fail alike: exit 3 from the merge, with the same lines")
    func failedExpectations() throws {
        let folder = temporaryDirectory("repeat-evaluate-failing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try Self.fleet(in: folder)
        try expectSameOutput(fleet + ["--expect", "enter.recall>=1.01"], shards: [3], status: 3)
        try expectSameOutput(fleet + ["--sweep", "confirm=1,3", "--expect", "all.f1>=1.01", "--json"], shards: [3], status: 3)
    }

    @Test("one feed device scored against one truth device of another name, in whichever shard it falls")
    func singleDeviceOfAnotherName() throws {
        let folder = temporaryDirectory("repeat-evaluate-single")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let walk = try EvaluateCommandTests.Walk(seed: 4, devices: 1, in: folder)
        let feed = try String(contentsOfFile: walk.feed, encoding: .utf8)
        let truth = try String(contentsOfFile: walk.truth, encoding: .utf8)
        // The feed's device "rover" and the truth's "ground" (column last).
        try Self.renamed(feed, to: "rover").write(toFile: walk.feed, atomically: true, encoding: .utf8)
        try Self.renamed(truth, to: "ground").write(toFile: walk.truth, atomically: true, encoding: .utf8)
        let arguments = [walk.feed, "--truth", walk.truth, "--regions", walk.regions, "--json", "--sweep", "confirm=1,2"]
        let reference = try unsharded(arguments)
        #expect(reference.stdout.contains(#""tp":"#) && !reference.stdout.contains(#""enter":{"tp":0,"#), "\(reference)")
        try expectSameOutput(arguments, shards: [2, 5])
    }

    /// `csv` with every row's last field (the device) set to `device`.
    static func renamed(_ csv: String, to device: String) -> String {
        csv.split(separator: "\n").enumerated().map { index, line in
            guard index > 0, let comma = line.lastIndex(of: ",") else { return String(line) }
            return line[...comma] + device
        }.joined(separator: "\n") + "\n"
    }

    @Test("feeds named after their files (dev-1.csv) fall in the shard of their truth device (dev-1)")
    func feedsNamedAfterFiles() throws {
        let folder = temporaryDirectory("repeat-evaluate-files")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let walk = try EvaluateCommandTests.Walk(seed: 8, devices: 6, in: folder)
        let lines = try String(contentsOfFile: walk.feed, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",")
        let deviceColumn = try #require(header.firstIndex(of: "device"))
        var files: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let kept = fields.indices.filter { $0 != deviceColumn }.map { String(fields[$0]) }
            files[String(fields[deviceColumn]), default: []].append(kept.joined(separator: ","))
        }
        #expect(files.count == 6)
        let keptHeader = header.indices.filter { $0 != deviceColumn }.map { String(header[$0]) }.joined(separator: ",")
        var paths: [String] = []
        for (device, rows) in files.sorted(by: { $0.key < $1.key }) {
            let path = "\(folder)/\(device).csv"
            try ([keptHeader] + rows).joined(separator: "\n").appending("\n").write(
                toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let arguments = paths + ["--truth", walk.truth, "--regions", walk.regions, "--json"]
        let reference = try unsharded(arguments)
        #expect(!reference.summary.isEmpty && !reference.stdout.contains(#""tp":0,"#), "\(reference)")
        try expectSameOutput(arguments, shards: [3])
    }

    @Test("hand-labelled true events (--truth-events): 3 shards merge to the same bytes")
    func handLabelledEvents() throws {
        let folder = temporaryDirectory("repeat-evaluate-labelled")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let walk = try EvaluateCommandTests.Walk(seed: 6, devices: 5, in: folder)
        // The true events of the tracks, as evaluate's JSON lines of events.
        let events = try EvaluateCommandTests().trueEvents(walk).map { event in
            #"{"kind":"\#(event.kind.rawValue)","time":"\#(RFC3339.format(event.time))","region":"\#(event.region)","#
                + #""device":"\#(event.device ?? "")"}"#
        }
        #expect(events.count > 10)
        let eventsFile = folder + "/events.jsonl"
        try (events.joined(separator: "\n") + "\n").write(toFile: eventsFile, atomically: true, encoding: .utf8)
        try expectSameOutput(
            [walk.feed, "--truth-events", eventsFile, "--regions", walk.regions, "--json", "--sweep", "confirm=1,2"],
            shards: [3])
    }

    @Test("the pooled runs of a scenario, with their intervals: runs split over 2 and 4 shards merge to the same bytes")
    func scenarioRuns() throws {
        let folder = temporaryDirectory("repeat-evaluate-scenario-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = folder + "/scenario.json"
        try """
        {"route": "\(RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"))", "keep-times": true,
         "environment": "urban", "devices": 3, "regions": "\(RepositoryPaths.track("visnjan-errands/places.csv"))"}
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let arguments = ["--scenario", scenario, "--runs", "5", "--sweep", "confirm=1,2", "--json"]
        let reference = try unsharded(arguments)
        #expect(reference.stdout.contains(#""false_entries_per_100h_ci95":["#), "\(reference)")
        try expectSameOutput(arguments, shards: [2, 4])
        try expectSameOutput(["--scenario", scenario, "--runs", "3", "--expect", "enter.recall>=1.01"], shards: [4], status: 3)
    }

    // MARK: What a shard refuses, and merge

    @Test("--shard refuses --report and --tasks, naming them")
    func refusals() throws {
        let folder = temporaryDirectory("repeat-evaluate-refusals")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try Self.fleet(in: folder)
        let report = try RepeatSimBinary.run(["evaluate"] + fleet + ["--report", folder + "/r.html", "--shard", "0/2"])
        #expect(report.status == 1 && report.stderr.contains("--report cannot go with --shard"), "\(report.stderr)")
        let tasks = try RepeatSimBinary.run(
            ["evaluate"] + fleet + ["--tasks", RepositoryPaths.track("simulate/tasks.json"), "--shard", "0/2"])
        #expect(tasks.status == 1 && tasks.stderr.contains("--tasks cannot go with --shard"), "\(tasks.stderr)")
        let bad = try RepeatSimBinary.run(["evaluate"] + fleet + ["--shard", "2/2"])
        #expect(bad.status == 1 && bad.stderr.contains("--shard takes I/N"), "\(bad.stderr)")
    }

    @Test("merge refuses a missing or repeated shard, a cut file, another run's shard and a replay's")
    func mergeRefusals() throws {
        let folder = temporaryDirectory("repeat-evaluate-merge")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try Self.fleet(in: folder)
        func shard(_ extra: [String], _ shard: String, to name: String) throws -> String {
            let result = try RepeatSimBinary.run(["evaluate"] + fleet + extra + ["--shard", shard])
            #expect(result.status == 0, "\(result.stderr)")
            let path = "\(folder)/\(name)"
            try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let zero = try shard([], "0/2", to: "zero.jsonl")
        let one = try shard([], "1/2", to: "one.jsonl")
        let otherRun = try shard(["--sweep", "confirm=2"], "1/2", to: "other.jsonl")
        let cut = folder + "/cut.jsonl"
        let lines = try String(contentsOfFile: one, encoding: .utf8).split(separator: "\n")
        try (lines.dropLast().joined(separator: "\n") + "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        let replayed = try RepeatSimBinary.run(["replay", fleet[0], "--regions", fleet[4], "--json", "--shard", "1/2"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let replayShard = folder + "/replay.jsonl"
        try replayed.stdout.write(toFile: replayShard, atomically: true, encoding: .utf8)

        let refused: [([String], String)] = [
            ([zero], "shard 1/2 missing"),
            ([zero, zero], "are both shard 0/2"),
            ([zero, cut], "ends before its closing line"),
            ([zero, otherRun], "shards of different runs"),
            ([zero, replayShard], "shards of different runs"),
            ([replayShard, zero], "shards of different runs"),
        ]
        for (files, message) in refused {
            let merged = try RepeatSimBinary.run(["merge"] + files)
            #expect(merged.status == 1 && merged.stderr.contains(message), "\(files): \(merged.stderr)")
            #expect(merged.stdout.isEmpty, "\(files)")
        }
        let merged = try RepeatSimBinary.run(["merge", one, zero])
        #expect(merged.status == 0 && merged.stdout.contains("recall"), "\(merged.stderr)")
    }
}
