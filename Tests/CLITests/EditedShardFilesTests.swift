import Foundation
import TestSupport
import Testing

/// `merge` of shard files whose lines are well-formed JSON but hold what
/// no shard writes (a file edited by hand, or damaged): a located message
/// and exit 1, never a trap and never a wrong sum.
@Suite("merge of edited shard files")
struct EditedShardFilesTests {
    /// Rewrites each line of the shard file `path` that `edit` changes
    /// (the line's JSON object, its line number from 1), into a copy named
    /// `name`; its path.
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

    /// Expects `merge FILES` to exit 1 with `message` on stderr and
    /// nothing on stdout.
    static func expectRefused(
        _ files: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let merged = try RepeatSimBinary.run(["merge"] + files)
        #expect(merged.status == 1, "\(merged.stderr)", sourceLocation: sourceLocation)
        #expect(merged.stderr.contains(message), "\(merged.stderr)", sourceLocation: sourceLocation)
        #expect(!merged.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(merged.stdout.isEmpty, sourceLocation: sourceLocation)
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

    @Test("evaluate's shards: negative or overflowing counts, latencies out of the window or not one per match, bad runs")
    func evaluateShards() throws {
        let folder = temporaryDirectory("repeat-edited-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try ShardedEvaluateTests.fleet(in: folder)
        var parts: [String] = []
        for index in 0..<2 {
            let result = try RepeatSimBinary.run(
                ["evaluate"] + fleet + ["--sweep", "confirm=1,2", "--json", "--shard", "\(index)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append("\(folder)/part-\(index).jsonl")
            try result.stdout.write(toFile: parts[index], atomically: true, encoding: .utf8)
        }
        let merged = try RepeatSimBinary.run(["merge"] + parts)
        #expect(merged.status == 0, "\(merged.stderr)")
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
        try Self.expectRefused(overflowing, "add up past 2^63 − 1")

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

        let shrunk = try Self.edited(parts[0], to: "shrunk.jsonl") { object, _ in
            guard var tally = object["tally"] as? [String: Any],
                var coverage = tally["coverage"] as? [[String: Any]], !coverage.isEmpty
            else { return }
            coverage[0]["hours"] = -1.5
            tally["coverage"] = coverage
            object["tally"] = tally
        }
        try Self.expectRefused([shrunk, parts[1]], "shrunk.jsonl:2: run 1: a truth device of -1.5 h")
        let stretched = try Self.edited(parts[0], to: "stretched.jsonl") { object, _ in
            guard var tally = object["tally"] as? [String: Any],
                var coverage = tally["coverage"] as? [[String: Any]], !coverage.isEmpty
            else { return }
            coverage[0]["km"] = 1.5e308
            tally["coverage"] = coverage
            object["tally"] = tally
        }
        try Self.expectRefused([stretched, parts[1]], "stretched.jsonl:2: run 1: a truth device of ")
        try Self.expectRefused([stretched, parts[1]], "1.5e+308 km at place ")
        try Self.expectRefused([stretched, parts[1]], "(at most 10^6 h and 10^9 km)")
    }

    @Test("replay's shards: a negative count in a summary, and summaries that add up past 2^63 − 1")
    func replayShards() throws {
        let folder = temporaryDirectory("repeat-edited-replay-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = [
            RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
            "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
            "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--json",
        ]
        var parts: [String] = []
        for index in 0..<2 {
            let result = try RepeatSimBinary.run(["replay"] + arguments + ["--shard", "\(index)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append("\(folder)/part-\(index).jsonl")
            try result.stdout.write(toFile: parts[index], atomically: true, encoding: .utf8)
        }
        #expect(try RepeatSimBinary.run(["merge"] + parts).status == 0)

        func summary(_ edit: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any], Int) -> Void {
            { object, _ in
                guard var summary = object["summary"] as? [String: Any] else { return }
                edit(&summary)
                object["summary"] = summary
            }
        }
        let negative = try Self.edited(parts[1], to: "negative.jsonl", summary { $0["devices"] = -1 })
        let lines = try String(contentsOfFile: negative, encoding: .utf8).split(separator: "\n").count
        try Self.expectRefused([parts[0], negative], "negative.jsonl:\(lines): a negative count in the summary line")

        let overflowing = try (0..<2).map { index in
            try Self.edited(parts[index], to: "big-\(index).jsonl", summary { $0["accepted"] = Int.max })
        }
        try Self.expectRefused(overflowing, "big-1.jsonl: summary counts that add up past 2^63 − 1")
    }
}
