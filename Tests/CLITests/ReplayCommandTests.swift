import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `repeat-sim replay … --regions … --transitions`, run as a user runs it.
@Suite struct ReplayCommandTests {
    /// A temporary file holding `text`.
    func file(_ name: String, _ text: String) throws -> String {
        let path = temporaryDirectory("repeat-replay") + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    // A pharmacy fence of 150 m at 52.52 N 13.40 E; 0.0021° of latitude ≈ 234 m.
    let regions = "id,lat,lon,radius\npharmacy,52.52,13.40,150\n"

    @Test("a run that finds nothing on a feed far from every region says so, and names swapped lat and lon")
    func farRegions() throws {
        let feed = try file(
            "walk.csv", "time,lat,lon\n2025-03-01T10:00:00Z,52.52,13.39\n2025-03-01T10:01:00Z,52.5201,13.3901\n")
        func warnings(_ regionsText: String) throws -> [Substring] {
            let result = try RepeatSimBinary.run(["replay", feed, "--regions", try file("far.csv", regionsText)])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        }
        // The pharmacy with lat and lon the wrong way round: 13.40 N 52.52 E, in Yemen.
        #expect(
            try warnings("id,lat,lon,radius\npharmacy,13.40,52.52,150\n") == [
                "warning: no fix came near a region: the feed begins 5557 km from the nearest, \"pharmacy\"; "
                    + "with its latitude and longitude exchanged, a region would be 0.5 km from it: "
                    + "are the regions' lat and lon the right way round?"
            ])
        #expect(try warnings("id,lat,lon,radius\nrome,41.9,12.5,150\n").first?.hasSuffix("from the nearest, \"rome\"") == true)
        // Near but not entered (700 m away), or entered: nothing to say.
        #expect(try warnings(regions) == [])
        #expect(try warnings("id,lat,lon,radius\nhere,52.52,13.39,150\n") == [])
    }

    @Test("--cooldown takes a fraction of an hour or a minute as its seconds; a fraction of a day, or of a second, is refused")
    func fractionalCooldowns() throws {
        func replay(cooldown: String) throws -> CommandResult {
            try RepeatSimBinary.run([
                "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
                "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
                "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--explain", "--json",
                "--cooldown=\(cooldown)",
            ])
        }
        let fraction = try replay(cooldown: "1.5h")
        #expect(fraction.status == 0, "\(fraction.stderr)")
        #expect(fraction.stdout == (try replay(cooldown: "90m")).stdout)
        #expect(fraction.stdout != (try replay(cooldown: "2m")).stdout, "a cooldown this scenario feels")
        let day = try replay(cooldown: "1.5d")
        #expect(day.status == 1)
        #expect(day.stderr.contains("--cooldown '1.5d' must be a whole number of days or weeks: write 36h"), "\(day.stderr)")
        let second = try replay(cooldown: "0.5s")
        #expect(second.status == 1)
        #expect(second.stderr.contains("--cooldown '0.5s' must be a whole number of seconds"), "\(second.stderr)")
    }

    @Test func sparseCarCrossesThenWalkerEntersAndExits() throws {
        // 50 km/h sampled once a minute: 400 m west of the fence, then 433 m east of it.
        let feed = """
            time,lat,lon,accuracy
            2025-03-01T10:00:00Z,52.52,13.3940881,5
            2025-03-01T10:01:00Z,52.52,13.4064045,5
            2025-03-01T10:02:00Z,52.52,13.40,5
            2025-03-01T10:03:00Z,52.5221,13.40,5
            """
        let result = try RepeatSimBinary.run(
            ["replay", try file("car.csv", feed), "--regions", try file("r.csv", regions), "--transitions", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try lines(result.stdout)
        #expect(events.map { $0["kind"] as? String } == ["cross", "enter", "exit"])
        #expect(events.map { $0["region"] as? String } == ["pharmacy", "pharmacy", "pharmacy"])
        #expect(
            events.map { $0["time"] as? String } == [
                "2025-03-01T10:00:28.800Z", "2025-03-01T10:02:00Z", "2025-03-01T10:03:00Z",
            ])
        let crossDistance = try #require(events[0]["distance_m"] as? Double)
        #expect(crossDistance < 1)
        let exitDistance = try #require(events[2]["distance_m"] as? Double)
        #expect(abs(exitDistance - 233.5) < 1)
        #expect(result.stderr.contains("replay: 4 fixes evaluated from 1 device, 3 transitions"))
    }

    @Test func noCrossAndAccuracyGateAreFlags() throws {
        let feed = """
            time,lat,lon,accuracy
            2025-03-01T10:00:00Z,52.52,13.3940881,5
            2025-03-01T10:01:00Z,52.52,13.4064045,5
            2025-03-01T10:02:00Z,52.52,13.40,500
            """
        let result = try RepeatSimBinary.run(
            [
                "replay", try file("car.csv", feed), "--regions", try file("r.csv", regions), "--transitions", "--json",
                "--no-cross",
            ])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("1 inaccurate"))
    }

    @Test func shuffledInputWithinTheWindowGivesTheSameTransitions() throws {
        let inOrder = (0..<20).map { second in
            "2025-03-01T10:00:\(second < 10 ? "0" : "")\(second)Z,\(52.5180 + Double(second) * 0.0002),13.40,5"
        }
        var shuffled = inOrder
        for start in stride(from: 0, to: 20, by: 4) { shuffled[start..<start + 4].reverse() }
        let regionsPath = try file("r.csv", regions)
        func run(_ rows: [String]) throws -> String {
            let result = try RepeatSimBinary.run(
                ["replay", "-", "--format", "csv", "--regions", regionsPath, "--transitions", "--json"],
                input: Array(("time,lat,lon,accuracy\n" + rows.joined(separator: "\n") + "\n").utf8))
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let expected = try run(inOrder)
        #expect(try lines(expected).map { $0["kind"] as? String } == ["enter", "exit"])
        #expect(try run(shuffled) == expected)
    }

    @Test("a tasks file of over 1 MiB, mapped rather than read, reminds as the same tasks in a small file and on stdin")
    func largeTasksFile() throws {
        let scenario = RepositoryPaths.track("cat-medicine/scenario.json")
        // Blanks after the JSON value are still JSON: the same tasks, over 1 MiB.
        let padded = try String(contentsOfFile: scenario, encoding: .utf8) + String(repeating: " \n", count: 600_000)
        let large = try file("tasks.json", padded)
        #expect(try #require(FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) > 1 << 20)
        func reminders(_ tasks: String, input: String? = nil) throws -> String {
            let result = try RepeatSimBinary.run(
                ["replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks", tasks, "--json"], input: input)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let small = try reminders(scenario)
        #expect(small.contains(#""kind":"location""#))
        #expect(try reminders(large) == small)
        #expect(try reminders("-", input: padded) == small)
    }

    @Test("a tasks file given as a named pipe is opened once and read as written")
    func tasksFromANamedPipe() throws {
        let scenario = RepositoryPaths.track("cat-medicine/scenario.json")
        let fifo = try file("tasks.fifo", "")
        try FileManager.default.removeItem(atPath: fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        let text = try Data(contentsOf: URL(fileURLWithPath: scenario))
        // Opening a named pipe waits for the other end: the writer has a thread of its own.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(text)
            try? handle.close()
        }
        writer.start()
        let drives = RepositoryPaths.track("cat-medicine/drives.gpx")
        let piped = try RepeatSimBinary.run(["replay", drives, "--tasks", fifo, "--json"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == (try RepeatSimBinary.run(["replay", drives, "--tasks", scenario, "--json"])).stdout)
    }

    @Test func aMissingTasksOrRegionsFileIsAPlainErrorNamingIt() throws {
        let feed = try file("f.csv", "time,lat,lon\n2025-03-01T10:00:00Z,52.52,13.40\n")
        for flag in ["--tasks", "--regions"] {
            let missing = try RepeatSimBinary.run(["replay", feed, flag, "no-such-file.json"])
            #expect(missing.status == 1)
            #expect(missing.stderr == "Error: cannot read \"no-such-file.json\": no such file\n", "\(flag)")
            #expect(missing.stdout.isEmpty)
        }
    }

    @Test func usageErrorsExitOneAndBadRegionsUnderStrictExitTwo() throws {
        let feed = try file("f.csv", "time,lat,lon\n2025-03-01T10:00:00Z,52.52,13.40\n")
        let noRegions = try RepeatSimBinary.run(["replay", feed, "--transitions"])
        #expect(noRegions.status == 1)
        #expect(noRegions.stderr.hasPrefix("Error: give --tasks FILE, --regions FILE, or both"))
        let badDwell = try RepeatSimBinary.run(["replay", feed, "--regions", feed, "--transitions", "--dwell", "soon"])
        #expect(badDwell.status == 1)
        #expect(badDwell.stderr.contains("'--dwell <duration>': 'soon' is not a duration like 45s"))

        let badRegions = try file("bad.csv", "id,lat,lon,radius\nok,52.52,13.40,100\nneg,52.52,13.40,-1\n")
        let lenient = try RepeatSimBinary.run(["replay", feed, "--regions", badRegions, "--transitions", "--json"])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("bad.csv:3: radius must be a positive number of metres, got -1.0"))
        #expect(try lines(lenient.stdout).map { $0["region"] as? String } == ["ok"])
        let strict = try RepeatSimBinary.run(["replay", feed, "--regions", badRegions, "--transitions", "--json", "--strict"])
        #expect(strict.status == 2)
        #expect(strict.stdout.isEmpty)
    }

    @Test func limitsExplainWhatTheyMissedAndTheSummaryAccountsForThem() throws {
        // Two shops 1 km apart on a parallel; a car passes both between two
        // fixes 2.5 km apart, then stops at the butcher's with a 900 m
        // accuracy. Only one region is monitored at a time: the baker, the
        // nearest at the first fix.
        let shops = "id,lat,lon,radius\nbaker,52.52,13.40,60\nbutcher,52.52,13.4147,60\n"
        let feed = """
            time,lat,lon,accuracy
            2025-03-01T10:00:00Z,52.52,13.3853,5
            2025-03-01T10:02:00Z,52.52,13.4221,5
            2025-03-01T10:03:00Z,52.52,13.4147,900
            """
        let result = try RepeatSimBinary.run(
            [
                "replay", try file("car.csv", feed), "--regions", try file("shops.csv", shops), "--explain", "--json",
                "--monitor-limit", "1", "--pending-limit", "64",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try lines(result.stdout)
        #expect(
            events.map { "\($0["kind"]!) \($0["reason"] ?? "-") \($0["region"]!)" } == [
                "location - baker", "suppressed monitor-limit butcher", "suppressed accuracy butcher",
            ])
        #expect(
            result.stderr.contains(
                "replay: limits: --monitor-limit 1 missed 1 reminder of 1 task"), "\(result.stderr)")
        #expect(result.stderr.contains("--pending-limit 64 missed nothing"))
        #expect(result.stderr.contains("the accuracy gate (--max-accuracy 100 m) missed 1 reminder of 1 task"))

        let badLimit = try RepeatSimBinary.run([
            "replay", try file("f.csv", feed), "--regions", try file("s.csv", shops), "--monitor-limit", "0",
        ])
        #expect(badLimit.status == 1)
        #expect(badLimit.stderr.contains("--monitor-limit must be at least 1"))

        // The largest limit leaves nothing out (it overflowed counting one more).
        let noLimit = try RepeatSimBinary.run([
            "replay", try file("f.csv", feed), "--regions", try file("s.csv", shops), "--json",
            "--monitor-limit", String(Int.max),
        ])
        #expect(noLimit.status == 0, "\(noLimit.stderr)")
        #expect(try lines(noLimit.stdout).map { "\($0["kind"]!) \($0["region"]!)" } == ["location baker", "location butcher"])
        #expect(noLimit.stderr.contains("--monitor-limit \(Int.max) missed nothing"), "\(noLimit.stderr)")
    }
}
