import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// `replay --jobs N` and `replay --shard I/N` + `merge` print exactly what
/// a single-threaded replay prints, on every `Tracks/` scenario and on a
/// generated fleet whose devices share places (the cooldown of an
/// always-due region is one state across devices).
@Suite("replay on several threads and shards")
struct ParallelReplayTests {
    /// A replay to run every way: its arguments and what it is.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    /// The `Tracks/` scenarios (with transitions too), the simulated
    /// routine, the 4 GPS tracks of Tracks/csv replayed as 4 devices, and
    /// a fleet of 50 generated devices (see ``fleet``).
    static let cases: [Case] =
        ScenarioTests.scenarios.map { scenario in
            Case(name: scenario.golden, arguments: resolved(scenario.arguments) + ["--transitions"])
        } + [
            Case(
                name: "two feeds named after their files",
                arguments: [
                    RepositoryPaths.track("cat-medicine/drives.gpx"), RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
                    "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
                    "--tasks", RepositoryPaths.track("cat-medicine/scenario.json"),
                ])
        ]

    static func resolved(_ arguments: [String]) -> [String] {
        arguments.map { $0.hasPrefix("@") ? RepositoryPaths.track(String($0.dropFirst())) : $0 }
    }

    /// stdout and the summary line (without its time) of `replay ARGUMENTS… EXTRA…`.
    func replay(_ arguments: [String], _ extra: [String]) throws -> (stdout: String, summary: String) {
        let result = try RepeatSimBinary.run(["replay"] + arguments + ["--json", "--explain"] + extra)
        #expect(result.status == 0, "\(extra): \(result.stderr)")
        return (result.stdout, Self.summary(result.stderr))
    }

    /// The `replay:` line of `stderr` up to its elapsed time.
    static func summary(_ stderr: String) -> String {
        let line = stderr.split(separator: "\n").last { $0.hasPrefix("replay: ") && $0.contains("fixes evaluated") }
        return line.map { String($0.prefix { $0 != ";" }) } ?? "<no summary in: \(stderr)>"
    }

    /// Runs the four shards of `arguments` as processes at once, then
    /// `merge` over their files: its stdout and summary.
    func shardedAndMerged(_ arguments: [String], shards: Int = 4) throws -> (stdout: String, summary: String) {
        let folder = temporaryDirectory("repeat-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: shards) { index in
            do {
                let result = try RepeatSimBinary.run(
                    ["replay"] + arguments + ["--json", "--explain", "--shard", "\(index)/\(shards)"])
                if result.status != 0 { failures.withLock { $0.append("shard \(index): \(result.stderr)") } }
                try result.stdout.write(toFile: "\(folder)/part-\(index).jsonl", atomically: true, encoding: .utf8)
            } catch {
                failures.withLock { $0.append("shard \(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        // In reverse order: merge sorts the shards itself.
        let merged = try RepeatSimBinary.run(["merge"] + (0..<shards).reversed().map { "\(folder)/part-\($0).jsonl" })
        #expect(merged.status == 0, "\(merged.stderr)")
        return (merged.stdout, Self.summary(merged.stderr))
    }

    @Test("--jobs 1, 2 and 7 and 4 shards + merge print the same bytes", arguments: cases)
    func sameBytes(_ replayCase: Case) throws {
        let reference = try replay(replayCase.arguments, ["--jobs", "1"])
        #expect(!reference.stdout.isEmpty)
        try expectSameAsOneThread(replayCase.arguments, reference: reference)
    }

    /// Expects `--jobs 2` and `--jobs 7`, and 4 shards + merge, to print
    /// what `reference`, `--jobs 1`'s replay of `arguments`, printed.
    func expectSameAsOneThread(
        _ arguments: [String], reference: (stdout: String, summary: String),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for jobs in [2, 7] {
            let threaded = try replay(arguments, ["--jobs", "\(jobs)"])
            #expect(threaded.stdout == reference.stdout, "--jobs \(jobs)", sourceLocation: sourceLocation)
            #expect(threaded.summary == reference.summary, "--jobs \(jobs)", sourceLocation: sourceLocation)
        }
        let merged = try shardedAndMerged(arguments)
        #expect(merged.stdout == reference.stdout, "4 shards + merge", sourceLocation: sourceLocation)
        #expect(merged.summary == reference.summary, "4 shards + merge", sourceLocation: sourceLocation)
    }

    /// A generated fleet: 50 devices on one drive through 12 places on the
    /// route, every place an always-due task, so that one device's reminder
    /// puts the place in cooldown for the others (the transitions are
    /// printed by the `Tracks/` cases).
    static func fleet(in folder: String) throws -> [String] {
        let feed = folder + "/fleet.csv"
        let generated = try RepeatSimBinary.run([
            "generate", "--via", "52.50,13.38;52.53,13.42;52.55,13.40", "--profile", "car", "--environment", "urban",
            "--devices", "50", "--seed", "11", "--out", feed,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        var regions = "id,lat,lon,radius\n"
        for index in 0..<12 {
            let fraction = Double(index) / 12
            let (lat, lon) =
                fraction < 0.5
                ? (52.50 + 0.06 * fraction, 13.38 + 0.08 * fraction)
                : (52.53 + 0.04 * (fraction - 0.5), 13.42 - 0.04 * (fraction - 0.5))
            regions += "place-\(index),\(lat),\(lon),\(60 + 20 * index)\n"
        }
        try regions.write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        return [feed, "--regions", folder + "/places.csv", "--cooldown", "2m"]
    }

    @Test("the simulated routine of Tracks/simulate: threads and shards print the single thread's bytes")
    func simulatedRoutine() throws {
        let folder = temporaryDirectory("repeat-routine")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feed = folder + "/routine.nmea"
        let generated = try RepeatSimBinary.run([
            "generate", "--itinerary", RepositoryPaths.track("simulate/routine.json"), "--days", "120",
            "--interval", "60s", "--environment", "urban", "--seed", "7", "--out", feed,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let arguments = [feed, "--tasks", RepositoryPaths.track("simulate/tasks.json")]
        let reference = try replay(arguments, ["--jobs", "1"])
        let golden = try String(contentsOfFile: RepositoryPaths.track("simulate/expected.jsonl"), encoding: .utf8)
        #expect(reference.stdout == golden)
        let threaded = try replay(arguments, ["--jobs", "2"])
        #expect(threaded.stdout == reference.stdout)
        let merged = try shardedAndMerged(arguments)
        #expect(merged.stdout == reference.stdout)
        #expect(merged.summary == reference.summary)
    }

    @Test("a generated fleet of 50 devices: threads and shards print the single thread's bytes")
    func generatedFleet() throws {
        let folder = temporaryDirectory("repeat-fleet")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try Self.fleet(in: folder)
        let reference = try replay(arguments, ["--jobs", "1"])
        let lines = reference.stdout.split(separator: "\n")
        // A reminder at most places, and many arrivals meet another device's cooldown.
        #expect(lines.filter { $0.contains("\"kind\":\"location\"") }.count >= 10)
        #expect(lines.filter { $0.contains("\"reason\":\"cooldown\"") }.count >= 100)
        #expect(reference.summary.contains("from 50 devices"), "\(reference.summary)")
        for jobs in [2, 7] {
            let threaded = try replay(arguments, ["--jobs", "\(jobs)"])
            #expect(threaded.stdout == reference.stdout, "--jobs \(jobs)")
            #expect(threaded.summary == reference.summary, "--jobs \(jobs)")
        }
        for shards in [4, 7] {
            let merged = try shardedAndMerged(arguments, shards: shards)
            #expect(merged.stdout == reference.stdout, "\(shards) shards + merge")
            #expect(merged.summary == reference.summary, "\(shards) shards + merge")
        }
    }

    /// 12 000 devices taking turns at 3 time steps, in a shuffled order
    /// that is not their names' order, each at one of 6 places: every
    /// device's last fixes are still in the reorder window when the feed
    /// ends, so the run's end finishes all of them, more devices than a
    /// worker hands on at once.
    static func crowd(in folder: String) throws -> [String] {
        let count = 12_000
        var rows = "time,lat,lon,device\n"
        for step in 0..<3 {
            // Devices in an order of their own at each step (4 567 and
            // 12 000 have no common factor), named in yet another.
            for turn in 0..<count {
                let index = (turn * 4_567 + step * 1_001) % count
                let name = "d\((index * 7_919) % count)"
                let place = index % 6
                let lat = 52.50 + 0.01 * Double(place) + 0.0001 * Double(step)
                rows += "\(1_700_000_000 + step),\(lat),13.40,\(name)\n"
            }
        }
        try rows.write(toFile: folder + "/crowd.csv", atomically: true, encoding: .utf8)
        var regions = "id,lat,lon,radius\n"
        for place in 0..<6 { regions += "place-\(place),\(52.50 + 0.01 * Double(place) + 0.0001),13.40,100\n" }
        try regions.write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        return [folder + "/crowd.csv", "--regions", folder + "/places.csv", "--transitions", "--cooldown", "1s"]
    }

    @Test("12 000 devices finished at the end of the run: threads print the single thread's bytes")
    func crowdFinishedAtTheEnd() throws {
        let folder = temporaryDirectory("repeat-crowd")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try Self.crowd(in: folder)
        let reference = try replay(arguments, ["--jobs", "1"])
        #expect(reference.summary.contains("from 12000 devices"), "\(reference.summary)")
        let lines = reference.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("\"kind\":\"enter\"") }.count == 12_000, "\(lines.prefix(3))")
        for jobs in [2, 3] {
            let threaded = try replay(arguments, ["--jobs", "\(jobs)"])
            #expect(threaded.stdout == reference.stdout, "--jobs \(jobs)")
            #expect(threaded.summary == reference.summary, "--jobs \(jobs)")
        }
    }

    /// `replay ARGUMENTS… --json --shard SHARD EXTRA…`: its lines after the
    /// header (which holds the arguments), and its exit status.
    func shardLines(_ arguments: [String], shard: String, _ extra: [String]) throws -> (lines: String, status: Int32) {
        let result = try RepeatSimBinary.run(["replay"] + arguments + ["--json", "--shard", shard] + extra)
        #expect(result.stdout.hasPrefix(#"{"header":"#), "\(shard) \(extra): \(result.stderr)")
        return (String(result.stdout.drop { $0 != "\n" }), result.status)
    }

    @Test("a shard's lines are the same bytes at --jobs 1, 2 and 7; shards on 1, 2 and 3 threads merge into one output")
    func shardLinesWhateverTheJobs() throws {
        let folder = temporaryDirectory("repeat-shard-jobs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 12 000 devices: most lines come from finishing them at the end,
        // in chunks from every worker.
        let arguments = try Self.crowd(in: folder)
        var parts: [String] = []
        for index in 0..<3 {
            let single = try shardLines(arguments, shard: "\(index)/3", ["--jobs", "1"])
            #expect(single.status == 0 && single.lines.contains(#""finishing":"#), "shard \(index)")
            for jobs in [2, 7] {
                let threaded = try shardLines(arguments, shard: "\(index)/3", ["--jobs", "\(jobs)"])
                #expect(threaded.status == 0)
                #expect(threaded.lines == single.lines, "shard \(index)/3 at --jobs \(jobs)")
            }
            // Each shard on its own number of threads: merge takes them together.
            let part = try RepeatSimBinary.run(
                ["replay"] + arguments + ["--json", "--explain", "--shard", "\(index)/3", "--jobs", "\(index + 1)"])
            parts.append("\(folder)/part-\(index).jsonl")
            try part.stdout.write(toFile: parts[index], atomically: true, encoding: .utf8)
        }
        let merged = try RepeatSimBinary.run(["merge"] + parts)
        let reference = try replay(arguments, ["--jobs", "1"])
        #expect(merged.status == 0 && merged.stdout == reference.stdout, "\(merged.stderr)")
        #expect(Self.summary(merged.stderr) == reference.summary)
    }

    @Test("--strict stops a shard at a malformed record alike at --jobs 1 and 3: same lines, exit 2")
    func shardStoppedByStrict() throws {
        let folder = temporaryDirectory("repeat-shard-strict")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The bad row past the first read (1 MiB), whose fixes are handed on.
        var rows = "time,lat,lon,device\n"
        for step in 0..<1_500 {
            for device in 0..<30 { rows += "\(1_700_000_000 + step),\(52.50 + 0.0005 * Double(step)),13.40,d\(device)\n" }
            if step == 1_400 { rows += "1700001400,north,13.40,d3\n" }
        }
        try rows.write(toFile: folder + "/feed.csv", atomically: true, encoding: .utf8)
        try "id,lat,lon,radius\nplace,52.51,13.40,300\n".write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        let arguments = [folder + "/feed.csv", "--regions", folder + "/places.csv", "--transitions", "--strict"]
        let single = try shardLines(arguments, shard: "1/2", ["--jobs", "1"])
        let threaded = try shardLines(arguments, shard: "1/2", ["--jobs", "3"])
        #expect(single.status == 2 && threaded.status == 2)
        #expect(single.lines.contains(#""stoppedAtMalformedRecord":true"#), "\(single.lines.suffix(300))")
        #expect(single.lines.contains(#""kind":"enter""#))
        #expect(threaded.lines == single.lines)
    }

    @Test("a feed on standard input, decoded while the tasks and regions are read: the single thread's bytes")
    func standardInput() throws {
        let feed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track("cat-medicine/drives.gpx"))))
        let places = ["--tasks", RepositoryPaths.track("cat-medicine/scenario.json"), "--json", "--explain"]
        let single = try RepeatSimBinary.run(["replay", "-"] + places + ["--jobs", "1"], input: feed)
        #expect(single.status == 0 && !single.stdout.isEmpty, "\(single.stderr)")
        let threaded = try RepeatSimBinary.run(["replay", "-"] + places + ["--jobs", "2"], input: feed)
        #expect(threaded.status == 0, "\(threaded.stderr)")
        #expect(threaded.stdout == single.stdout)
        #expect(Self.summary(threaded.stderr) == Self.summary(single.stderr))
    }

    @Test("regions and tasks read at once on several threads: their problems are reported as one thread reports them")
    func problemsInOrder() throws {
        let folder = temporaryDirectory("repeat-jobs-problems")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feed = RepositoryPaths.track("cat-medicine/drives.gpx")
        let unusable = folder + "/unusable.csv", partial = folder + "/partial.csv"
        let goodTasks = RepositoryPaths.track("cat-medicine/scenario.json"), badTasks = folder + "/bad-tasks.json"
        try "id,lat,lon,radius\nhome,north,11.5,100\n".write(toFile: unusable, atomically: true, encoding: .utf8)
        try "id,lat,lon,radius\nhome,48.1,11.5,100\nshop,north,11.5,100\n".write(
            toFile: partial, atomically: true, encoding: .utf8)
        try #"{"tasks": [{"id": "a", "title": "A", "schedule": {"fixed": {"every": "1d"}}, "start": "soon"}]}"#.write(
            toFile: badTasks, atomically: true, encoding: .utf8)
        let cases: [(regions: String, tasks: String, strict: Bool, expected: [String])] = [
            (unusable, badTasks, false, ["unusable.csv:2: latitude is not a number", "no usable region in"]),
            (partial, badTasks, false, ["partial.csv:3: latitude is not a number", "bad-tasks.json"]),
            (partial, badTasks, true, ["partial.csv:3: latitude is not a number"]),
            (unusable, goodTasks, false, ["no usable region in"]),
        ]
        for (regions, tasks, strict, expected) in cases {
            var outcomes: [(status: Int32, stderr: String)] = []
            for jobs in ["1", "2"] {
                let result = try RepeatSimBinary.run(
                    ["replay", feed, "--regions", regions, "--tasks", tasks, "--jobs", jobs] + (strict ? ["--strict"] : []))
                outcomes.append((result.status, result.stderr))
                #expect(result.status != 0 && result.stdout.isEmpty, "--jobs \(jobs): \(result.stderr)")
                // In this order; and below, the same at --jobs 2 as at --jobs 1.
                let found = expected.map { result.stderr.range(of: $0)?.lowerBound }
                #expect(!found.contains(nil) && found == found.sorted { $0! < $1! }, "--jobs \(jobs): \(result.stderr)")
            }
            #expect(outcomes[1].status == outcomes[0].status, "\(regions) \(tasks)")
            #expect(outcomes[1].stderr == outcomes[0].stderr, "\(regions) \(tasks)")
        }
    }

    @Test("--shard and merge refuse what cannot work, and say why")
    func refusals() throws {
        let track = RepositoryPaths.track("cat-medicine/drives.gpx")
        let tasks = RepositoryPaths.track("cat-medicine/scenario.json")
        for (value, message) in [("4/4", "--shard takes I/N"), ("1", "--shard takes I/N"), ("0/0", "--shard takes I/N")] {
            let result = try RepeatSimBinary.run(["replay", track, "--tasks", tasks, "--shard", value])
            #expect(result.status == 1 && result.stderr.contains(message), "\(value): \(result.stderr)")
        }
        let report = try RepeatSimBinary.run(["replay", track, "--tasks", tasks, "--shard", "0/2", "--report", "r.html"])
        #expect(report.status == 1 && report.stderr.contains("--report cannot go with --shard"), "\(report.stderr)")
        let jobs = try RepeatSimBinary.run(["replay", track, "--tasks", tasks, "--jobs", "0"])
        #expect(jobs.status == 1 && jobs.stderr.contains("--jobs must be at least 1"), "\(jobs.stderr)")

        let folder = temporaryDirectory("repeat-merge")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var parts: [String] = []
        for index in 0..<2 {
            let result = try RepeatSimBinary.run(["replay", track, "--tasks", tasks, "--shard", "\(index)/2"])
            let path = "\(folder)/part-\(index).jsonl"
            try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            parts.append(path)
        }
        let cut = folder + "/cut.jsonl"
        let whole = try String(contentsOfFile: parts[1], encoding: .utf8)
        try whole.split(separator: "\n").dropLast().map { $0 + "\n" }.joined().write(
            toFile: cut, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            ([parts[0]], "shard 1/2 missing"),
            ([parts[0], parts[0]], "are both shard 0/2"),
            ([parts[0], track], "not the output of `repeat-sim replay --shard I/N`"),
            ([parts[0], cut], "ends before its summary line"),
            ([parts[0], folder + "/none.jsonl"], "none.jsonl"),
        ]
        for (files, message) in cases {
            let result = try RepeatSimBinary.run(["merge"] + files)
            #expect(result.status == 1, "\(files)")
            #expect(result.stderr.contains(message), "\(files): \(result.stderr)")
        }
        let merged = try RepeatSimBinary.run(["merge"] + parts)
        let single = try RepeatSimBinary.run(["replay", track, "--tasks", tasks, "--jobs", "1"])
        #expect(merged.status == 0 && merged.stdout == single.stdout, "\(merged.stderr)")
    }
}
