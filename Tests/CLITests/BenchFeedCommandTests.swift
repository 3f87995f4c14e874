import Foundation
import TestSupport
import Testing

/// `bench --feed` (issue 14): the user's workload, its figures and its gates.
/// Nothing here asserts a time or a rate: expectations are set where no
/// machine can meet them, and baselines are edited to be better than possible.
@Suite("repeat-sim bench --feed: figures and CI gates")
struct BenchFeedCommandTests {
    /// The Višnjan drive against its errands: 104 fixes, 13 places, 8 reminders.
    let workload = [
        "bench", "--feed", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
        "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
        "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--runs", "1",
    ]

    func temporaryPath(_ name: String) throws -> String {
        temporaryDirectory("bench-feed") + "/" + name
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("--json: every figure under its name, the workload's counts as replay gives them, agreement and notes")
    func jsonFields() throws {
        let result = try RepeatSimBinary.run(workload + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try object(result.stdout)
        for name in [
            "fixes_per_s", "decode_fixes_per_s", "index_positions_per_s", "bruteforce_positions_per_s", "peak_rss_mb",
            "pipeline_vs_decode", "index_vs_bruteforce", "candidates_per_position", "bytes_per_region",
            "allocations_per_1k_fixes", "decode_allocations_per_1k_fixes",
        ] {
            let value = try #require(json[name] as? Double, "\(name)")
            #expect(value > 0, "\(name)")
        }
        #expect(json["fixes"] as? Int == 104)
        #expect(json["devices"] as? Int == 1)
        #expect(json["regions"] as? Int == 13)
        // The same counts as `replay … --monitor-limit` aside: 8 reminders, 28 transitions.
        #expect(json["reminders"] as? Int == 8)
        #expect(json["transitions"] as? Int == 28)
        #expect(json["bruteforce_sample"] as? Int == 104)
        #expect(json["bruteforce_disagreements"] as? Int == 0)
        #expect(json["bruteforce_agrees"] as? Bool == true)
        #expect(json["passed"] as? Bool == true)
        #expect(json["baseline"] is NSNull)
        // Instructions need perf_event_open: a number, or null with a note saying why.
        let notes = try #require(json["notes"] as? [String])
        if json["instructions_per_fix"] is NSNull {
            #expect(notes.contains { $0.hasPrefix("instructions_per_fix: perf_event_open failed: ") })
            #expect(result.stderr.contains("bench: note: instructions_per_fix: perf_event_open failed"))
        } else {
            #expect((json["instructions_per_fix"] as? Double ?? 0) > 0)
        }
    }

    @Test("--expect: exit 0 when every expectation holds, 3 naming the one that fails")
    func expectations() throws {
        let passing = try RepeatSimBinary.run(workload + ["--expect", "fixes>=104", "--expect", "reminders == 8"])
        #expect(passing.status == 0, "\(passing.stderr)")
        #expect(passing.stdout.contains("expect fixes>=104: ok"))
        #expect(passing.stdout.hasSuffix("bench: passed\n"))

        let failing = try RepeatSimBinary.run(
            workload + ["--expect", "fixes>=104", "--expect", "fixes_per_s>=1e15", "--json"])
        #expect(failing.status == 3)
        #expect(failing.stderr.contains("bench: expectation failed: fixes_per_s>=1e15 (fixes_per_s is "))
        #expect(!failing.stderr.contains("fixes>=104"))
        let json = try object(failing.stdout)
        #expect(json["passed"] as? Bool == false)
        let expectations = try #require(json["expectations"] as? [[String: Any]])
        #expect(expectations.map { $0["expect"] as? String } == ["fixes>=104", "fixes_per_s>=1e15"])
        #expect(expectations.map { $0["holds"] as? Bool } == [true, false])
    }

    @Test("a misspelt figure in --expect is a usage error suggesting the nearest name")
    func misspeltExpectation() throws {
        let result = try RepeatSimBinary.run(workload + ["--expect", "index_vs_brute>=50"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "--expect: 'index_vs_brute' is not a bench figure; did you mean 'index_vs_bruteforce'?"))
        let noComparison = try RepeatSimBinary.run(workload + ["--expect", "fixes_per_s"])
        #expect(noComparison.status == 1)
        #expect(noComparison.stderr.contains("--expect 'fixes_per_s' has no comparison"))
    }

    @Test("flags of --feed without --feed, and --feed without places, name the flag")
    func usageErrors() throws {
        let save = try RepeatSimBinary.run(["bench", "--save", "x.json"])
        #expect(save.status == 1)
        #expect(save.stderr.contains("--save needs --feed FILE"))
        let places = try RepeatSimBinary.run(["bench", "--feed", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")])
        #expect(places.status == 1)
        #expect(places.stderr.contains("--feed needs --regions FILE, --tasks FILE, or both"))
        let regression = try RepeatSimBinary.run(workload + ["--max-regression", "lots"])
        #expect(regression.status == 1)
        #expect(regression.stderr.contains("--max-regression 'lots' is not a percentage like 10% or 2.5"))
        let runs = try RepeatSimBinary.run(workload + ["--runs", String(Int.max)])
        #expect(runs.status == 1)
        #expect(runs.stderr.hasPrefix("Error: --runs must be at most 1 000 000"), "\(runs.stderr)")
    }

    @Test("--save writes the report; --baseline with it passes, and with a better-than-possible baseline exits 3")
    func baseline() throws {
        let saved = try temporaryPath("baseline.json")
        let first = try RepeatSimBinary.run(workload + ["--save", saved])
        #expect(first.status == 0, "\(first.stderr)")
        var baseline = try object(String(decoding: try Data(contentsOf: URL(fileURLWithPath: saved)), as: UTF8.self))
        #expect(baseline["fixes"] as? Int == 104)

        // Ratios vary with the machine: set them far below anything measured,
        // so that this comparison exercises the load-independent figures.
        baseline["pipeline_vs_decode"] = 1e-6
        baseline["index_vs_bruteforce"] = 1e-6
        let lenient = try temporaryPath("lenient.json")
        try JSONSerialization.data(withJSONObject: baseline).write(to: URL(fileURLWithPath: lenient))
        let same = try RepeatSimBinary.run(workload + ["--baseline", lenient, "--max-regression", "50%", "--json"])
        #expect(same.status == 0, "\(same.stderr)")
        let comparison = try #require(try object(same.stdout)["baseline"] as? [String: Any])
        #expect(comparison["max_regression"] as? Double == 0.5)
        let compared = try #require(comparison["compared"] as? [[String: Any]])
        #expect(compared.compactMap { $0["metric"] as? String }.contains("allocations_per_1k_fixes"))
        #expect(!compared.contains { ($0["metric"] as? String) == "fixes_per_s" }, "absolute rates are never gated")

        // Injected regression: a baseline claiming a tenth of the allocations.
        let allocations = try #require(baseline["allocations_per_1k_fixes"] as? Double)
        baseline["allocations_per_1k_fixes"] = allocations / 10
        baseline["fixes_per_s"] = 1e15
        let better = try temporaryPath("better.json")
        try JSONSerialization.data(withJSONObject: baseline).write(to: URL(fileURLWithPath: better))
        let regressed = try RepeatSimBinary.run(workload + ["--baseline", better, "--max-regression", "50%"])
        #expect(regressed.status == 3)
        #expect(regressed.stderr.contains("bench: regression: allocations_per_1k_fixes is "))
        #expect(regressed.stderr.contains("worse than the baseline's"))
        #expect(regressed.stderr.contains("(allowed: 50 %)"))
        #expect(!regressed.stderr.contains("fixes_per_s"), "absolute rates are shown, never gated")
        #expect(regressed.stdout.contains("REGRESSION"))
    }

    @Test("a baseline that is not a JSON object is an error naming the flag and the file")
    func unreadableBaseline() throws {
        let path = try temporaryPath("not.json")
        try Data("fixes_per_s: 3\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try RepeatSimBinary.run(workload + ["--baseline", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--baseline: \"\(path)\" is not a JSON object"))
        // An object without one gated figure would pass any run: refused before the bench runs.
        try Data("{\"fixes_per_s\": 3}\n".utf8).write(to: URL(fileURLWithPath: path))
        let rates = try RepeatSimBinary.run(workload + ["--baseline", path])
        #expect(rates.status == 1)
        #expect(rates.stderr.contains("--baseline: \"\(path)\" holds none of the figures a baseline gates"), "\(rates.stderr)")
        #expect(rates.stdout.isEmpty)
        let folder = (path as NSString).deletingLastPathComponent
        let onFolder = try RepeatSimBinary.run(workload + ["--baseline", folder])
        #expect(onFolder.status == 1)
        #expect(
            onFolder.stderr.contains("--baseline: cannot read \"\(folder)\": it is a folder, not a file"), "\(onFolder.stderr)")
    }

    @Test("--markdown: a heading with the verdict, one table row per figure, expectations and notes")
    func markdown() throws {
        let result = try RepeatSimBinary.run(workload + ["--markdown", "--expect", "fixes_per_s>=1e15"])
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "### repeat-sim bench: FAILED")
        let header = try #require(lines.firstIndex(of: "| figure | name | value | baseline | change | gate |"))
        #expect(lines[header + 1] == "| --- | --- | ---: | ---: | ---: | --- |")
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
        #expect(rows.count == 19)
        #expect(rows.contains { $0.hasPrefix("| fixes | `fixes` | 104 |") })
        #expect(
            rows.contains {
                $0.hasPrefix("| sampled fixes where grid and brute force differ | `bruteforce_disagreements` | 0 |")
                    && $0.hasSuffix("✅ must be 0 |")
            })
        #expect(lines.contains("| expectation | value | holds |"))
        #expect(lines.contains { $0.hasPrefix("| `fixes_per_s>=1e15` | ") && $0.hasSuffix(" | ❌ |") })
        #expect(lines.contains { $0.hasPrefix("- ❌ expectation failed: fixes_per_s>=1e15") })
    }
}
