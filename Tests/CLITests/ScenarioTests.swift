import Foundation
import TestSupport
import Testing

/// The `Tracks/` scenarios: a real track, a tasks file and the expected
/// reminders (golden JSON lines, `RECORD_TRACKS=1 swift test --filter
/// ScenarioTests` re-records them).
@Suite("Tracks scenarios through replay")
struct ScenarioTests {
    /// A scenario: `replay` arguments (`@path` is a file under `Tracks/`)
    /// and its golden output under `Tracks/`.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let golden: String
        let arguments: [String]
        var testDescription: String { golden }
    }

    static let scenarios = [
        Scenario(
            golden: "cat-medicine/drives.gpx.expected.jsonl",
            arguments: ["@cat-medicine/drives.gpx", "--tasks", "@cat-medicine/scenario.json"]),
        Scenario(
            golden: "visnjan-errands/expected.jsonl",
            arguments: [
                "@gpx/gpxpy-visnjan-car.gpx", "--regions", "@visnjan-errands/places.csv",
                "--tasks", "@visnjan-errands/tasks.json", "--monitor-limit", "2",
            ]),
        Scenario(
            golden: "cold-start/expected.jsonl",
            arguments: [
                "@nmea/gpsd-haicom-305N-stationary-then-moving.nmea", "--tasks", "@cold-start/tasks.json",
                "--max-accuracy", "40",
            ]),
    ]

    /// `replay ARGUMENTS… --explain --json`, with `@` paths resolved.
    func replay(_ arguments: [String]) throws -> CommandResult {
        let resolved = arguments.map { $0.hasPrefix("@") ? RepositoryPaths.track(String($0.dropFirst())) : $0 }
        return try RepeatSimBinary.run(["replay"] + resolved + ["--explain", "--json"])
    }

    func replay(_ track: String, _ tasks: String) throws -> CommandResult {
        try replay(["@" + track, "--tasks", "@" + tasks])
    }

    /// The JSON objects of `text`'s lines.
    func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("each scenario gives its expected reminders and suppressions", arguments: scenarios)
    func golden(scenario: Scenario) throws {
        let result = try replay(scenario.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let expectedPath = RepositoryPaths.track(scenario.golden)
        try Golden.expect(result.stdout, matches: expectedPath, suite: "ScenarioTests")
    }

    @Test("Višnjan errands: monitoring two places misses the parcel at the post office, and says so")
    func visnjanMonitorLimit() throws {
        let scenario = Self.scenarios[1]
        let limited = try replay(scenario.arguments)
        let unlimited = try replay(Array(scenario.arguments.dropLast(2)))
        let missed = events(limited.stdout).filter { $0["reason"] as? String == "monitor-limit" }
        #expect(missed.map { $0["task"] as? String } == ["parcel"])
        #expect(missed.first?["region"] as? String == "Post office")
        // Without the limit the same arrival reminds; nothing else changes.
        let parcel = events(unlimited.stdout).filter { $0["task"] as? String == "parcel" }
        #expect(parcel.map { $0["kind"] as? String } == ["location"])
        #expect(parcel.first?["time"] as? String == missed.first?["time"] as? String)
        #expect(events(limited.stdout).count == events(unlimited.stdout).count)
        #expect(limited.stderr.contains("replay: limits: --monitor-limit 2 missed 1 reminder of 1 task"), "\(limited.stderr)")
    }

    @Test("cold start: the post box is reached while the receiver is still too inaccurate, reminded one fix later")
    func coldStartAccuracy() throws {
        let result = try replay(Self.scenarios[2].arguments)
        let postLetter = events(result.stdout).filter { $0["task"] as? String == "post-letter" }
        #expect(postLetter.map { $0["kind"] as? String } == ["suppressed", "location"])
        #expect(postLetter.first?["reason"] as? String == "accuracy")
        // The newspaper was due an hour before the log starts: due at its first fix.
        let due = events(result.stdout).first { $0["kind"] as? String == "due" }
        #expect(due?["task"] as? String == "newspaper")
        #expect(due?["time"] as? String == "2007-04-08T09:53:04.802Z")
        #expect(result.stderr.contains("the accuracy gate (--max-accuracy 40 m) missed 1 reminder of 1 task"))
    }

    @Test("the cat-medicine story: week 9 quiet, week 10 reminds, the due date fires, the fixed grid drifts")
    func catMedicineStory() throws {
        let result = try replay("cat-medicine/drives.gpx", "cat-medicine/scenario.json")
        let events = events(result.stdout)
        func event(_ task: String, on day: String) -> [String: Any]? {
            events.first { ($0["task"] as? String) == task && (($0["time"] as? String)?.hasPrefix(day) ?? false) }
        }
        // Start 2020-10-05 09:00 Zagreb: window 2020-12-14 09:00 CET, due 2021-01-11 09:00 CET.
        // Week 9 (2020-12-11): the pharmacy is passed, the window opens in three days.
        #expect(event("cat-medicine", on: "2020-12-11")?["reason"] as? String == "not-due")
        // Week 10 (2020-12-18): inside the window, the pharmacy reminds.
        let week10 = event("cat-medicine", on: "2020-12-18")
        #expect(week10?["kind"] as? String == "location")
        #expect(week10?["region"] as? String == "Pharmacy")
        #expect(week10?["window_start"] as? String == "2020-12-14T08:00:00Z")
        // The due date passes between drives: a due reminder at its own time.
        #expect(event("cat-medicine", on: "2021-01-11")?["time"] as? String == "2021-01-11T08:00:00Z")
        #expect(event("cat-medicine", on: "2021-01-11")?["kind"] as? String == "due")
        // Bought that evening: the next drive (2021-01-18) is in a new cycle, not due.
        #expect(event("cat-medicine", on: "2021-01-18")?["reason"] as? String == "not-due")
        // The fixed 12-week grid is due on 2020-12-28 whatever happened, and stays quiet on 2020-12-18.
        #expect(event("cat-medicine-fixed", on: "2020-12-28")?["kind"] as? String == "due")
        #expect(event("cat-medicine-fixed", on: "2020-12-18")?["reason"] as? String == "not-due")
        #expect(result.stderr.contains("3 reminders (due 2, location 1), 5 suppressed (not-due 5)"))
    }

    @Test("--exec runs once per reminder with its fields in the environment; a failing hook is reported")
    func execHook() throws {
        let log = temporaryDirectory("repeat-exec") + "/hook.txt"
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"),
            "--json", "--exec", "echo \"$REPEAT_KIND|$REPEAT_TASK|$REPEAT_REGION|$REPEAT_TIME|$REPEAT_DUE\" >> '\(log)'",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(
            lines == [
                "location|cat-medicine|Pharmacy|2020-12-18T06:18:37Z|2021-01-11T08:00:00Z",
                "due|cat-medicine-fixed||2020-12-28T08:00:00Z|2020-12-28T08:00:00Z",
                "due|cat-medicine||2021-01-11T08:00:00Z|2021-01-11T08:00:00Z",
            ])
        let failing = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"),
            "--json", "--exec", "exit 3",
        ])
        #expect(failing.status == 0)
        #expect(failing.stderr.contains("warning: --exec command exited with status 3"))
        #expect(failing.stdout.split(separator: "\n").count == 3)
    }

    @Test("--exec hooks read /dev/null, write to stderr, and are stopped after --exec-timeout")
    func execHookIsolation() throws {
        let feed = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track("cat-medicine/drives.gpx")))
        // A hook that reads stdin would swallow a feed piped in; it gets /dev/null instead.
        let reading = try RepeatSimBinary.run(
            [
                "replay", "-", "--tasks", RepositoryPaths.track("cat-medicine/scenario.json"), "--json", "--exec",
                #"read line; echo "hook read ${#line} bytes""#,
            ], input: [UInt8](feed))
        #expect(reading.status == 0, "\(reading.stderr)")
        #expect(reading.stdout.split(separator: "\n").count == 3, "\(reading.stdout)")
        #expect(!reading.stdout.contains("hook read"))
        #expect(reading.stderr.components(separatedBy: "hook read 0 bytes").count == 4, "\(reading.stderr)")
        let hung = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--json", "--exec", "sleep 60 | cat", "--exec-timeout", "1s",
        ])
        #expect(hung.status == 0)
        #expect(hung.stdout.split(separator: "\n").count == 3)
        #expect(hung.stderr.contains("warning: --exec command ran longer than 1.00 s and was stopped (--exec-timeout)"))
    }

    @Test("--geojson writes the regions, the track and every reminder and transition as features")
    func geojson() throws {
        let path = temporaryDirectory("repeat-geojson") + "/replay.geojson"
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"),
            "--explain", "--json", "--geojson", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let collection = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        func kind(_ feature: [String: Any]) -> String? { (feature["properties"] as? [String: Any])?["kind"] as? String }
        let kinds = features.compactMap(kind)
        // One region (the two tasks share the pharmacy), one device's track, and every line of the
        // --explain --json output.
        #expect(kinds.filter { $0 == "region" }.count == 1)
        #expect(kinds.filter { $0 == "track" }.count == 1)
        #expect(
            kinds.filter { ["location", "due", "suppressed"].contains($0) }.count == result.stdout.split(separator: "\n").count)
        // One enter per drive past the pharmacy, not one per task.
        #expect(kinds.filter { $0 == "enter" }.count == 3)
        let track = try #require(features.first { kind($0) == "track" }?["geometry"] as? [String: Any])
        #expect((track["coordinates"] as? [[Double]])?.count == 312)
        let region = try #require(features.first { kind($0) == "region" }?["geometry"] as? [String: Any])
        let ring = try #require((region["coordinates"] as? [[[[Double]]]])?.first?.first)
        #expect(ring.count == 65 && ring.first == ring.last)
    }

    @Test("--speed paces without changing the answer; a bad speed is a usage error")
    func speed() throws {
        let paced = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"),
            "--json", "--speed", "1e9",
        ])
        let flat = try replay("cat-medicine/drives.gpx", "cat-medicine/scenario.json")
        #expect(paced.status == 0)
        #expect(
            paced.stdout == flat.stdout.split(separator: "\n").filter { !$0.contains("suppressed") }.map { $0 + "\n" }.joined())
        let bad = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--speed", "fast",
        ])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("'--speed <speed>': 'fast' is not max, realtime or a positive number"))
    }
}
