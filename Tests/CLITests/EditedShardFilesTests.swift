import Foundation
import TestSupport
import Testing

/// `merge` of shard files whose lines are well-formed JSON but hold what
/// no shard writes (a file edited by hand, or damaged): a located message
/// and exit 1, never a trap and never a wrong sum.
@Suite("merge of edited shard files")
struct EditedShardFilesTests {
    /// Copies the shard file `path` to `name` beside it, each line's JSON
    /// object passed through `edit` with its line number (from 1); the
    /// copy's path.
    static func edited(
        _ path: String, to name: String, _ edit: (inout [String: Any], Int) -> Void
    ) throws -> String {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var edited: [String] = []
        for (index, line) in lines.enumerated() {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            edit(&object, index + 1)
            edited.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        let copy = (path as NSString).deletingLastPathComponent + "/" + name
        try (edited.joined(separator: "\n") + "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        return copy
    }

    /// Expects `merge FILES` to exit 1 with `message` on stderr, and
    /// nothing on stdout when `printsNothing` (evaluate's merge checks its
    /// files before it prints; replay's prints as it goes).
    static func expectRefused(
        _ files: [String], _ message: String, printsNothing: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let merged = try RepeatSimBinary.run(["merge"] + files)
        #expect(merged.status == 1, "\(merged.stderr)", sourceLocation: sourceLocation)
        #expect(merged.stderr.contains(message), "\(merged.stderr)", sourceLocation: sourceLocation)
        #expect(!merged.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(merged.stdout.isEmpty || !printsNothing, sourceLocation: sourceLocation)
    }

    /// Edits each setting of a tally line.
    static func settings(_ object: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        guard var tally = object["tally"] as? [String: Any], let settings = tally["settings"] as? [[String: Any]]
        else { return }
        tally["settings"] = settings.map { setting in
            var setting = setting
            edit(&setting)
            return setting
        }
        object["tally"] = tally
    }

    /// Two shards of an evaluate over a 9-device fleet and a sweep, and two
    /// of a replay of the Višnjan drive against its errands, written in
    /// `folder`: the evaluate's paths, then the replay's.
    static func shardFiles(in folder: String) throws -> (evaluate: [String], replay: [String]) {
        let fleet = try ShardedEvaluateTests.fleet(in: folder)
        let drive = [
            RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
            "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
            "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--json", "--explain",
        ]
        var files: [String: [String]] = [:]
        for (command, arguments) in [("evaluate", fleet + ["--sweep", "confirm=1,2", "--json"]), ("replay", drive)] {
            for index in 0..<2 {
                let result = try RepeatSimBinary.run([command] + arguments + ["--shard", "\(index)/2"])
                #expect(result.status == 0, "\(result.stderr)")
                let path = "\(folder)/\(command)-\(index).jsonl"
                try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
                files[command, default: []].append(path)
            }
            #expect(try RepeatSimBinary.run(["merge"] + files[command]!).status == 0)
        }
        return (files["evaluate"]!, files["replay"]!)
    }

    @Test("evaluate's shards: negative or overflowing counts, latencies out of the window or not one per match, bad runs")
    func evaluateShards() throws {
        let folder = temporaryDirectory("repeat-edited-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parts = try Self.shardFiles(in: folder).evaluate
        let text = try String(contentsOfFile: parts[0], encoding: .utf8)
        #expect(text.contains(#""latencies":[-"#) || text.contains(#""latencies":[0"#), "part 0 has matches")

        func entries(_ edit: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any], Int) -> Void {
            { object, _ in
                Self.settings(&object) { setting in
                    guard var enter = setting["enter"] as? [String: Any] else { return }
                    edit(&enter)
                    setting["enter"] = enter
                }
            }
        }
        let negative = try Self.edited(parts[0], to: "negative.jsonl", entries { $0["fn"] = -1 })
        try Self.expectRefused([negative, parts[1]], "negative.jsonl:2: run 1, setting 1: a negative count")

        let latencyLost = try Self.edited(
            parts[0], to: "lost.jsonl",
            entries { enter in enter["latencies"] = Array((enter["latencies"] as? [Double] ?? []).dropLast()) })
        try Self.expectRefused([latencyLost, parts[1]], "lost.jsonl:2: run 1, setting ")
        try Self.expectRefused([latencyLost, parts[1]], "entries matched but")

        let late = try Self.edited(
            parts[0], to: "late.jsonl",
            entries { enter in
                guard let latencies = enter["latencies"] as? [Double], !latencies.isEmpty else { return }
                enter["latencies"] = Array(latencies.dropLast()) + [1e308]
            })
        try Self.expectRefused([late, parts[1]], "late.jsonl: run 1, setting ")
        try Self.expectRefused([late, parts[1]], "a match 1e+308 s after its true event")
        try Self.expectRefused([late, parts[1]], "outside the matching window (-30.0 to 600.0 s)")

        let huge = Int.max / 2 + 1
        let overflowing = try (0..<2).map { index in
            try Self.edited(parts[index], to: "big-\(index).jsonl", entries { $0["fp"] = huge })
        }
        try Self.expectRefused(overflowing, "add up past 2^62")

        let secondRun = try Self.edited(parts[0], to: "run2.jsonl") { object, _ in
            guard var tally = object["tally"] as? [String: Any] else { return }
            tally["run"] = 2
            object["tally"] = tally
        }
        try Self.expectRefused([secondRun, parts[1]], "run2.jsonl:2: run 2 of a run of 1")

        let noRuns = try Self.edited(parts[0], to: "no-runs.jsonl") { object, _ in
            guard var end = object["end"] as? [String: Any] else { return }
            end["runs"] = 0
            object["end"] = end
        }
        try Self.expectRefused([noRuns, parts[1]], "no-runs.jsonl:3: 0 runs of 2 settings")

        func firstCoverage(_ key: String, _ value: Double) -> (inout [String: Any], Int) -> Void {
            { object, _ in
                guard var tally = object["tally"] as? [String: Any],
                    var coverage = tally["coverage"] as? [[String: Any]], !coverage.isEmpty
                else { return }
                coverage[0][key] = value
                tally["coverage"] = coverage
                object["tally"] = tally
            }
        }
        let shrunk = try Self.edited(parts[0], to: "shrunk.jsonl", firstCoverage("hours", -1.5))
        try Self.expectRefused([shrunk, parts[1]], "shrunk.jsonl:2: run 1: a truth device of -1.5 h")
        let stretched = try Self.edited(parts[0], to: "stretched.jsonl", firstCoverage("km", 1.5e308))
        try Self.expectRefused([stretched, parts[1]], "stretched.jsonl:2: run 1: a truth device of ")
        try Self.expectRefused([stretched, parts[1]], "1.5e+308 km at place ")
        try Self.expectRefused([stretched, parts[1]], "(at most 5 124 096 h, 1677 to 2262, and 10^12 km)")
    }

    @Test("replay's shards: a negative count in a summary, and summaries that add up past 2^62")
    func replayShards() throws {
        let folder = temporaryDirectory("repeat-edited-replay-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parts = try Self.shardFiles(in: folder).replay

        func summary(_ edit: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any], Int) -> Void {
            { object, _ in
                guard var summary = object["summary"] as? [String: Any] else { return }
                edit(&summary)
                object["summary"] = summary
            }
        }
        let negative = try Self.edited(parts[1], to: "negative.jsonl", summary { $0["devices"] = -1 })
        let lines = try String(contentsOfFile: negative, encoding: .utf8).split(separator: "\n").count
        try Self.expectRefused(
            [parts[0], negative], "negative.jsonl:\(lines): a negative count in the summary line",
            printsNothing: false)

        let overflowing = try (0..<2).map { index in
            try Self.edited(parts[index], to: "big-\(index).jsonl", summary { $0["accepted"] = 3 << 60 })
        }
        try Self.expectRefused(overflowing, "big-1.jsonl: summary counts that add up past 2^62", printsNothing: false)
    }

    @Test("a file cut within its last line, and a field of the wrong kind or missing: located, and said in words")
    func cutAndMistyped() throws {
        let folder = temporaryDirectory("repeat-cut-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (evaluate, replay) = try Self.shardFiles(in: folder)
        for (pair, name) in [(evaluate, "evaluate"), (replay, "replay")] {
            // A shard that is missing, or a folder given for one, is named before anything is read.
            try Self.expectRefused([pair[0], folder], "cannot read \"\(folder)\": it is a folder, not a file")
            try Self.expectRefused([pair[0], folder + "/gone.jsonl"], "cannot read \"\(folder)/gone.jsonl\": no such file")
            let text = try String(contentsOfFile: pair[1], encoding: .utf8)
            let lines = text.split(separator: "\n").count
            let cut = "\(folder)/\(name)-cut.jsonl"
            try String(text.dropLast(12)).write(toFile: cut, atomically: true, encoding: .utf8)
            try Self.expectRefused(
                [pair[0], cut], "\(name)-cut.jsonl:\(lines): the last line is cut short: the shard's run did not finish",
                printsNothing: name == "evaluate")
        }
        let mistyped = try Self.edited(evaluate[0], to: "mistyped.jsonl") { object, _ in
            Self.settings(&object) { setting in
                guard var enter = setting["enter"] as? [String: Any] else { return }
                enter["tp"] = "many"
                setting["enter"] = enter
            }
        }
        try Self.expectRefused(
            [mistyped, evaluate[1]],
            "mistyped.jsonl:2: not an evaluate shard's line (tally.settings[0].enter.tp is not a whole number)")
        // The drive is one device: one of the two shards has its items.
        let counts = try replay.map { try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n").count }
        let (busy, idle) = counts[0] > counts[1] ? (replay[0], replay[1]) : (replay[1], replay[0])
        let unplaced = try Self.edited(busy, to: "unplaced.jsonl") { object, _ in
            guard var item = object["item"] as? [String: Any] else { return }
            item["feed"] = nil
            object["item"] = item
        }
        try Self.expectRefused(
            [unplaced, idle], "unplaced.jsonl:2: not a shard line (no \"feed\" in item)", printsNothing: false)
    }

    /// A value to put in place of a number: edges of every range a count,
    /// a time, a place or a latency has.
    static var extremes: [Any] {
        [-1, 0, 1, Int.max, Int.min, Int.max / 2 + 1, 1e308, -1e308, 0.5, -0.5, 9_007_199_254_740_993, 1e-300]
    }

    /// `value` with one number, string or key of its JSON tree changed, as
    /// `random` picks.
    static func damaged(_ value: Any, _ random: inout SeededRandom) -> Any {
        func pick<Element>(_ elements: [Element]) -> Element { elements[Int(random.next() % UInt64(elements.count))] }
        switch value {
        case var object as [String: Any]:
            guard let key = object.keys.sorted().randomElement(using: &random) else { return object }
            if random.next() % 8 == 0 { object[key] = nil } else { object[key] = damaged(object[key]!, &random) }
            return object
        case var array as [Any]:
            guard !array.isEmpty else { return [pick(extremes)] }
            let index = Int(random.next() % UInt64(array.count))
            if random.next() % 8 == 0 { array.remove(at: index) } else { array[index] = damaged(array[index], &random) }
            return array
        case is String: return pick(["enter", "exit", "cross", "dwell", "late", "untimed", "released", "", "x"])
        default: return pick(extremes)
        }
    }

    /// Expects what a merge that took damaged files printed to hold no
    /// count below 0 and no score above 1.
    static func expectSane(_ merged: CommandResult, round: Int) {
        let summary = merged.stderr.split(separator: "\n").first { $0.hasPrefix("replay: ") || $0.hasPrefix("evaluate: ") }
        #expect(summary?.contains(/[ (]-\d/) == false, "round \(round): \(merged.stderr)")
        for line in merged.stdout.split(separator: "\n") where line.hasPrefix(#"{"setting""#) {
            let row = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            for kind in ["enter", "exit", "all"] {
                let scores = row[kind] as? [String: Any] ?? [:]
                for name in ["precision", "recall", "tp", "fp", "fn"] {
                    let value = (scores[name] as? NSNumber)?.doubleValue ?? 0
                    #expect(value >= 0 && (value <= 1 || !["precision", "recall"].contains(name)), "round \(round): \(line)")
                }
            }
        }
    }

    @Test("seeded: 300 damaged shard files, each merged with its sibling, exit 0 or 1 with a message; none traps")
    func seededDamage() throws {
        let seed = SeededRandom.testSeed(default: 17)
        print("EditedShardFilesTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let folder = temporaryDirectory("repeat-damaged-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (evaluate, replay) = try Self.shardFiles(in: folder)
        var refused = 0
        for round in 0..<300 {
            let pair = round % 2 == 0 ? evaluate : replay
            let victim = Int(random.next() % 2)
            let lines = try String(contentsOfFile: pair[victim], encoding: .utf8).split(separator: "\n")
            // The header now and then; mostly the outcomes, tallies and summary.
            let target = random.next() % 4 == 0 ? 1 : 2 + Int(random.next() % UInt64(lines.count - 1))
            let copy = "\(folder)/damaged-\(round).jsonl"
            _ = try Self.edited(pair[victim], to: "damaged-\(round).jsonl") { object, line in
                guard line == target else { return }
                object = Self.damaged(object, &random) as? [String: Any] ?? object
            }
            let merged = try RepeatSimBinary.run(["merge", victim == 0 ? copy : pair[0], victim == 1 ? copy : pair[1]])
            #expect([0, 1].contains(merged.status), "round \(round), line \(target): \(merged.stderr)")
            if merged.status == 1 {
                refused += 1
                #expect(merged.stderr.contains("Error: "), "round \(round): \(merged.stderr)")
            } else if merged.status == 0 {
                Self.expectSane(merged, round: round)
            }
        }
        #expect(refused > 100, "most damage is refused: \(refused) of 300")
    }
}
