import Evaluation
import Foundation
import GeoCore
import Geofencing
import TestSupport
import Testing

/// `repeat-sim evaluate` end to end: its counts against `replay
/// --transitions` and a quadratic reference matcher, hand-labelled truth
/// against tracks, expectations and refusals.
@Suite("repeat-sim evaluate")
struct EvaluateCommandTests {
    /// A walk west-south-west through Berlin, 1.9 km.
    static let start = Coordinate(latitude: 52.5200, longitude: 13.4050)
    static let end = Coordinate(latitude: 52.5163, longitude: 13.3777)

    /// Circles along the walk: passed through, grazed, and missed.
    static let circles: [(id: String, fraction: Double, offset: Double, radius: Double)] = [
        ("through", 0.15, 0, 40), ("offset", 0.35, 25, 50), ("graze", 0.55, 55, 60), ("wide", 0.75, -30, 90),
        ("miss", 0.9, 110, 80),
    ]

    /// A generated two-device urban walk with its truth, in a fresh folder.
    struct Walk {
        let folder: String
        var feed: String { folder + "/feed.csv" }
        var truth: String { folder + "/truth.csv" }
        var regions: String { folder + "/regions.csv" }

        /// `devices` walkers generated with `seed` into `folder` (default:
        /// a new temporary one).
        init(seed: Int = 5, devices: Int = 2, in folder: String? = nil) throws {
            self.folder = folder ?? temporaryDirectory("repeat-evaluate")
            let result = try RepeatSimBinary.run([
                "generate", "--via", "\(start.latitude),\(start.longitude);\(end.latitude),\(end.longitude)",
                "--devices", "\(devices)",
                "--environment", "urban", "--seed", "\(seed)", "--out", feed, "--truth", truth,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            try EvaluateCommandTests.regionsCSV(padding: 0).write(toFile: regions, atomically: true, encoding: .utf8)
        }
    }

    /// The circles as a regions CSV, radii grown by `padding`.
    static func regionsCSV(padding: Double) -> String {
        let metresPerDegree = Geodesy.earthRadius * .pi / 180
        return "id,lat,lon,radius\n"
            + circles.map { circle in
                let latitude =
                    start.latitude + (end.latitude - start.latitude) * circle.fraction + circle.offset / metresPerDegree
                let longitude = start.longitude + (end.longitude - start.longitude) * circle.fraction
                return "\(circle.id),\(latitude),\(longitude),\(circle.radius + padding)"
            }.joined(separator: "\n") + "\n"
    }

    // MARK: Differential

    @Test("the counts equal those of replay --transitions and a quadratic matcher, for every setting of a sweep")
    func countsMatchReplayAndAReferenceMatcher() throws {
        let walk = try Walk()
        let sweep = ["hysteresis=0,25", "confirm=1,2", "pad=0,20", "interval=0,5s"]
        let evaluated = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", walk.truth, "--regions", walk.regions, "--json"]
                + sweep.flatMap { ["--sweep", $0] })
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let rows = try jsonLines(evaluated.stdout)
        #expect(rows.count == 16)

        let truth = try trueEvents(walk)
        #expect(truth.filter { $0.kind == .enter }.count >= 6, "the walk enters the fences: \(truth)")
        let feedLines = try String(contentsOfFile: walk.feed, encoding: .utf8).split(separator: "\n").map(String.init)
        for row in rows {
            let setting = try #require(row["setting"] as? [String: Any])
            let hysteresis = try #require(setting["hysteresis"] as? Int)
            let confirm = try #require(setting["confirm"] as? Int)
            let pad = try #require(setting["pad"] as? Int)
            let interval = try #require(setting["interval"] as? Int)
            let folder = temporaryDirectory("repeat-evaluate-row")
            try Self.regionsCSV(padding: Double(pad)).write(toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
            try Self.decimated(feedLines, seconds: interval).write(
                toFile: folder + "/feed.csv", atomically: true, encoding: .utf8)
            let replay = try RepeatSimBinary.run([
                "replay", folder + "/feed.csv", "--regions", folder + "/regions.csv", "--transitions", "--json",
                "--hysteresis", "\(hysteresis)", "--confirm", "\(confirm)",
            ])
            #expect(replay.status == 0, "\(replay.stderr)")
            let detected = try jsonLines(replay.stdout).flatMap { line -> [ScoredEvent] in
                let kind = try #require(line["kind"] as? String)
                let time = try #require(line["time"] as? String)
                let event = ScoredEvent(
                    kind: .enter, time: try #require(RFC3339.parse(time)), region: try #require(line["region"] as? String),
                    device: line["device"] as? String)
                var exit = event
                exit.kind = .exit
                return ["enter": [event], "exit": [exit], "cross": [event, exit]][kind] ?? []
            }
            for kind in [ScoredEvent.Kind.enter, .exit] {
                let expected = Self.referenceCounts(
                    truth: truth.filter { $0.kind == kind }, detected: detected.filter { $0.kind == kind })
                let scores = try #require(row[kind.rawValue] as? [String: Any])
                let counts = [scores["tp"] as? Int, scores["fp"] as? Int, scores["fn"] as? Int]
                #expect(counts == [expected.tp, expected.fp, expected.fn], "\(kind) with \(setting)")
            }
        }
    }

    /// The true events of the walk's truth file, by the finder `evaluate`
    /// uses (its analytic cases are pinned in EvaluationTests).
    func trueEvents(_ walk: Walk) throws -> [ScoredEvent] {
        let decoded = try RepeatSimBinary.run(["decode", walk.truth, "--json"])
        var tracks: [String: [TruthPoint]] = [:]
        for line in try jsonLines(decoded.stdout) {
            let time = try #require(line["time"] as? String)
            let fix = Fix(
                time: RFC3339.parse(time),
                coordinate: Coordinate(
                    latitude: try #require(line["lat"] as? Double), longitude: try #require(line["lon"] as? Double)),
                device: line["device"] as? String)
            tracks[fix.device ?? "", default: []].append(TruthPoint(time: try #require(fix.time), coordinate: fix.coordinate))
        }
        let regions = try Self.regionsCSV(padding: 0).split(separator: "\n").dropFirst().map { row in
            let fields = row.split(separator: ",")
            return Region(
                id: String(fields[0]),
                shape: .circle(
                    centre: Coordinate(
                        latitude: try #require(Double(fields[1])), longitude: try #require(Double(fields[2]))),
                    radius: try #require(Double(fields[3]))))
        }
        let finder = TrueEventFinder(regions: regions)
        return tracks.keys.sorted().flatMap { finder.events(along: tracks[$0]!, device: $0) }
    }

    /// The matching rule as a quadratic loop: each true event, in time
    /// order, takes the earliest unmatched detection of its device and
    /// region within [t − 30 s, t + 10 min].
    static func referenceCounts(truth: [ScoredEvent], detected: [ScoredEvent]) -> (tp: Int, fp: Int, fn: Int) {
        var used = [Bool](repeating: false, count: detected.count)
        var tp = 0
        for event in truth.sorted(by: { $0.time < $1.time }) {
            var best: Int?
            for (index, candidate) in detected.enumerated()
            where !used[index] && candidate.device == event.device && candidate.region == event.region
                && candidate.time.nanoseconds >= event.time.nanoseconds - 30_000_000_000
                && candidate.time.nanoseconds <= event.time.nanoseconds + 600_000_000_000
            {
                if best.map({ candidate.time < detected[$0].time }) ?? true { best = index }
            }
            if let best {
                used[best] = true
                tp += 1
            }
        }
        return (tp, detected.count - tp, truth.count - tp)
    }

    /// A CSV feed with a device's row kept only `seconds` after its last
    /// kept row (the header stays).
    static func decimated(_ lines: [String], seconds: Int) throws -> String {
        let header = lines[0].split(separator: ",").map(String.init)
        let timeColumn = try #require(header.firstIndex(of: "time"))
        let deviceColumn = try #require(header.firstIndex(of: "device"))
        var lastKept: [String: Int64] = [:]
        var kept = [lines[0]]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let time = try #require(RFC3339.parse(fields[timeColumn])).nanoseconds
            let device = fields[deviceColumn]
            if let last = lastKept[device], time - last < Int64(seconds) * 1_000_000_000 { continue }
            lastKept[device] = time
            kept.append(line)
        }
        return kept.joined(separator: "\n") + "\n"
    }

    // MARK: Truth

    @Test("--truth-events with the visits the truth tracks imply gives the same scores")
    func handLabelledVisitsScoreLikeTheTracks() throws {
        let walk = try Walk(seed: 9)
        let truth = try trueEvents(walk)
        var visits = ["device,region,enter,exit"]
        for entry in truth where entry.kind == .enter {
            let exit = truth.first {
                $0.kind == .exit && $0.device == entry.device && $0.region == entry.region && $0.time >= entry.time
            }
            visits.append(
                "\(entry.device ?? ""),\(entry.region),\(RFC3339.format(entry.time)),\(exit.map { RFC3339.format($0.time) } ?? "")"
            )
        }
        let visitsFile = walk.folder + "/visits.csv"
        try (visits.joined(separator: "\n") + "\n").write(toFile: visitsFile, atomically: true, encoding: .utf8)
        let common = [walk.feed, "--regions", walk.regions, "--json", "--sweep", "confirm=1,3"]
        let fromTracks = try RepeatSimBinary.run(["evaluate"] + common + ["--truth", walk.truth])
        let fromVisits = try RepeatSimBinary.run(["evaluate"] + common + ["--truth-events", visitsFile])
        #expect(fromTracks.status == 0 && fromVisits.status == 0, "\(fromTracks.stderr)\n\(fromVisits.stderr)")
        for (tracks, labelled) in zip(try jsonLines(fromTracks.stdout), try jsonLines(fromVisits.stdout)) {
            for key in ["setting", "enter", "exit", "all", "visits"] {
                #expect(
                    NSDictionary(dictionary: try #require(tracks[key] as? [String: Any]))
                        == NSDictionary(dictionary: try #require(labelled[key] as? [String: Any])), "\(key)")
            }
            #expect(tracks["device_hours"] is Double && labelled["device_hours"] is NSNull)
            #expect(tracks["false_entries_per_100h"] is Double && labelled["false_entries_per_100h"] is NSNull)
        }

        // Their report (no truth track to draw) reads the feed again for
        // its detail, a file or the copy of a pipe.
        let report = { (name: String) in walk.folder + "/" + name + ".html" }
        let labelledReport = ["--truth-events", visitsFile, "--report"]
        let streamed = try RepeatSimBinary.run(["evaluate"] + common + labelledReport + [report("labelled")])
        let piped = try pipedFeed(walk, Array(common.dropFirst()) + labelledReport + [report("piped-labelled")])
        #expect(streamed.status == 0 && piped.status == 0, "\(streamed.stderr)\n\(piped.stderr)")
        #expect(try withoutSubtitle(report("labelled")) == (try withoutSubtitle(report("piped-labelled"))))

        // A visit to a region the run does not evaluate is scored as a miss,
        // and named: with the region meant when the name differs only in case.
        let strays = ["dev1,THROUGH,2025-01-06T08:00:10Z,2025-01-06T08:00:20Z", "dev1,zz,2025-01-06T08:00:10Z,"]
        try ((visits + strays).joined(separator: "\n") + "\n").write(toFile: visitsFile, atomically: true, encoding: .utf8)
        let stray = try RepeatSimBinary.run(["evaluate"] + common + ["--truth-events", visitsFile])
        #expect(stray.status == 0, "\(stray.stderr)")
        #expect(
            stray.stderr.contains(
                "warning: \(visitsFile): no region \"THROUGH\" is evaluated (did you mean \"through\"?); its 2 true events can only be missed"
            ), "\(stray.stderr)")
        #expect(
            stray.stderr.contains("warning: \(visitsFile): no region \"zz\" is evaluated; its 1 true event can only be missed"),
            "\(stray.stderr)")
        for (before, after) in zip(try jsonLines(fromVisits.stdout), try jsonLines(stray.stdout)) {
            let missed = { (line: [String: Any]) in ((line["enter"] as? [String: Any])?["fn"] as? Int) ?? -1 }
            #expect(missed(after) == missed(before) + 2)
        }

        // Two visits that overlap are both kept, and the second named.
        let overlapping = ["dev2,through,2025-01-06T12:00:00Z,2025-01-06T12:10:00Z", "dev2,through,2025-01-06T12:05:00Z,"]
        try ((visits + overlapping).joined(separator: "\n") + "\n").write(
            toFile: visitsFile, atomically: true, encoding: .utf8)
        let overlap = try RepeatSimBinary.run(["evaluate"] + common + ["--truth-events", visitsFile])
        #expect(overlap.status == 0, "\(overlap.stderr)")
        #expect(
            overlap.stderr.contains(
                "warning: \(visitsFile): line \(visits.count + 2): device dev2 enters \"through\" again, inside since line "
                    + "\(visits.count + 1): both are kept, and one of the two can only be missed"), "\(overlap.stderr)")
    }

    @Test(
        "the feed and truth streamed score and report alike from files and through pipes (copied, then read again); a truth out of time order too"
    )
    func pipesScoreAndReportLikeFiles() throws {
        let walk = try Walk(seed: 3)
        let sweep = ["--regions", walk.regions, "--sweep", "confirm=1,2", "--sweep", "interval=0s,5s", "--json"]
        let streamed = try RepeatSimBinary.run(["evaluate", walk.feed, "--truth", walk.truth] + sweep)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try jsonLines(streamed.stdout).count == 4)

        // A report reads the feed and truth files again for its detail; a
        // feed through a pipe is copied into a temporary file as it is read,
        // and that is read again. Both pages are the same but for the feed's
        // name in the subtitle, and the copy leaves nothing behind.
        let report = { (name: String) in walk.folder + "/" + name + ".html" }
        let reported = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", walk.truth, "--report", report("streamed")] + sweep)
        let spoolFolder = temporaryDirectory("repeat-spool")
        let piped = try pipedFeed(
            walk, ["--truth", walk.truth, "--report", report("piped")] + sweep, environment: ["TMPDIR": spoolFolder])
        #expect(reported.status == 0 && piped.status == 0, "\(reported.stderr)\n\(piped.stderr)")
        #expect(reported.stdout == streamed.stdout && piped.stdout == streamed.stdout)
        let page = try withoutSubtitle(report("streamed"))
        #expect(page.contains("class=\"map\"") && page.contains("missed"))
        #expect(page == (try withoutSubtitle(report("piped"))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolFolder).isEmpty)

        // Where no copy can be made, the run stops before scoring, naming
        // the pipe and the directory; without a report the feed is not copied.
        let noFolder = ["TMPDIR": spoolFolder + "/missing"]
        let uncopied = try pipedFeed(walk, ["--truth", walk.truth, "--report", report("no")] + sweep, environment: noFolder)
        #expect(uncopied.status == 1 && uncopied.stdout.isEmpty)
        for words in ["cannot copy /dev/fd/", "/missing (to read it again for --report)", "set TMPDIR"] {
            #expect(uncopied.stderr.contains(words), "\(uncopied.stderr)")
        }
        let unreported = try pipedFeed(walk, ["--truth", walk.truth] + sweep, environment: noFolder)
        #expect(unreported.status == 0 && unreported.stdout == streamed.stdout, "\(unreported.stderr)")

        // The truth's lines backwards, and one that is no truth point: the
        // scan finds the tracks out of order and reads them again (a pipe,
        // its copy) to keep and sort them, without repeating the file's
        // diagnostics.
        let lines = try String(contentsOfFile: walk.truth, encoding: .utf8).split(separator: "\n")
        let backwards = walk.folder + "/backwards.csv"
        try ([String(lines[0]), "not,a,point,dev1"] + lines.dropFirst().reversed().map(String.init))
            .joined(separator: "\n").appending("\n").write(toFile: backwards, atomically: true, encoding: .utf8)
        let sorted = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", backwards, "--report", report("backwards")] + sweep)
        #expect(sorted.status == 0, "\(sorted.stderr)")
        #expect(sorted.stdout == streamed.stdout)
        #expect(sorted.stderr.components(separatedBy: "backwards.csv:2").count == 2, "\(sorted.stderr)")
        let pipedBackwards = try runProcess(
            "/bin/bash",
            ["-c", #"cat "$1" | "$0" evaluate - --truth <(cat "$2") "${@:3}""#, RepeatSimBinary.path, walk.feed, backwards]
                + ["--report", report("piped-backwards")] + sweep, environment: ["TMPDIR": spoolFolder])
        #expect(pipedBackwards.status == 0, "\(pipedBackwards.stderr)")
        #expect(pipedBackwards.stdout == streamed.stdout)
        #expect(pipedBackwards.stderr.components(separatedBy: ":2: ").count == 2, "\(pipedBackwards.stderr)")
        #expect(try withoutSubtitle(report("backwards")) == (try withoutSubtitle(report("piped-backwards"))))
        let subtitle = try String(contentsOfFile: report("piped-backwards"), encoding: .utf8)
        #expect(subtitle.contains("<p class=\"subtitle\">repeat-sim evaluate - --truth /dev/fd/"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolFolder).isEmpty)

        let pipedTruth = try runProcess(
            "/bin/bash",
            ["-c", #""$0" evaluate "$1" --truth <(cat "$2") "${@:3}""#, RepeatSimBinary.path, walk.feed, walk.truth] + sweep)
        #expect(pipedTruth.status == 0, "\(pipedTruth.stderr)")
        #expect(pipedTruth.stdout == streamed.stdout)

        // With a task half-way along: its reminders on the truth are found
        // as the truth is read too.
        let tasks = walk.folder + "/tasks.json"
        try """
        {"tasks": [{"id": "milk", "title": "Milk", "start": "2020-01-01T00:00:00Z",
          "schedule": {"afterCompletion": {"min": "0d", "max": "2d"}},
          "locations": [{"name": "half-way", "lat": \((Self.start.latitude + Self.end.latitude) / 2),
                         "lon": \((Self.start.longitude + Self.end.longitude) / 2), "radius": 60}]}]}
        """.write(toFile: tasks, atomically: true, encoding: .utf8)
        let withTasks = sweep + ["--tasks", tasks]
        let streamedTasks = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", walk.truth, "--report", report("tasks")] + withTasks)
        let pipedTasks = try pipedFeed(walk, ["--truth", walk.truth, "--report", report("piped-tasks")] + withTasks)
        #expect(streamedTasks.status == 0 && pipedTasks.status == 0, "\(streamedTasks.stderr)\n\(pipedTasks.stderr)")
        let reminders = try #require(try jsonLines(streamedTasks.stdout).first?["reminders"] as? [String: Any])
        #expect(reminders["tp"] as? Int ?? 0 > 0, "\(reminders)")
        #expect(streamedTasks.stdout == pipedTasks.stdout)
        #expect(try withoutSubtitle(report("tasks")) == (try withoutSubtitle(report("piped-tasks"))))
    }

    @Test("a truth device without a fix in the feed is named: its true events are all misses")
    func aTruthDeviceWithoutFixesIsNamed() throws {
        let walk = try Walk(seed: 4)
        let lines = try String(contentsOfFile: walk.feed, encoding: .utf8).split(separator: "\n")
        let firstOnly = walk.folder + "/dev1.csv"
        try (lines.filter { !$0.hasSuffix(",dev2") }.joined(separator: "\n") + "\n")
            .write(toFile: firstOnly, atomically: true, encoding: .utf8)
        let both = try RepeatSimBinary.run(["evaluate", walk.feed, "--truth", walk.truth, "--regions", walk.regions])
        #expect(both.status == 0 && !both.stderr.contains("warning"), "\(both.stderr)")
        let one = try RepeatSimBinary.run(["evaluate", firstOnly, "--truth", walk.truth, "--regions", walk.regions])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(
            one.stderr.contains("warning: no fix in the feed for truth device dev2; its true events count as missed"),
            "\(one.stderr)")
        #expect(!one.stderr.contains("truth device dev1"), "\(one.stderr)")
    }

    @Test("nothing to score on a feed far from every region: a warning that names swapped lat and lon")
    func farRegionsAreNamed() throws {
        let walk = try Walk(seed: 6)
        // The walk's regions with each latitude and longitude exchanged.
        let swapped = walk.folder + "/swapped.csv"
        let rows = try String(contentsOfFile: walk.regions, encoding: .utf8).split(separator: "\n").dropFirst().map {
            let fields = $0.split(separator: ",")
            return [fields[0], fields[2], fields[1], fields[3]].joined(separator: ",")
        }
        try (["id,lat,lon,radius"] + rows).joined(separator: "\n").write(toFile: swapped, atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", walk.truth, "--regions", swapped, "--sweep", "confirm=1,2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: no fix came near a region: the feed begins "), "\(result.stderr)")
        #expect(result.stderr.contains("are the regions' lat and lon the right way round?"), "\(result.stderr)")
    }

    /// `evaluate` of the walk's feed through a pipe, with `arguments` and
    /// the `environment` added to the test's.
    private func pipedFeed(
        _ walk: Walk, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> CommandResult {
        try runProcess(
            "/bin/bash", ["-c", #""$0" evaluate <(cat "$1") "${@:2}""#, RepeatSimBinary.path, walk.feed] + arguments,
            environment: environment)
    }

    /// The report at `path` without its subtitle, which names the feed.
    private func withoutSubtitle(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter {
            !$0.contains("<p class=\"subtitle\">")
        }.joined(separator: "\n")
    }

    // MARK: Expectations

    @Test("a failed expectation of one setting exits 3 naming it; a sweep marks the rows that meet all")
    func expectationsGateTheExitStatus() throws {
        let walk = try Walk()
        let base = ["evaluate", walk.feed, "--truth", walk.truth, "--regions", walk.regions]
        let met = try RepeatSimBinary.run(base + ["--expect", "enter.recall>=0.5", "--expect", "all.latency_s.p50<=10m"])
        #expect(met.status == 0, "\(met.stderr)")
        let failed = try RepeatSimBinary.run(base + ["--expect", "enter.recall>=0.5", "--expect", "enter.fp<0"])
        #expect(failed.status == 3)
        // A count is named as one: `(enter.fp is 3)`, not `3.0`.
        #expect(failed.stderr.contains(/expectation failed: enter\.fp<0 \(enter\.fp is [0-9]+\)/), "\(failed.stderr)")
        #expect(!failed.stderr.contains("enter.recall>=0.5 ("), "\(failed.stderr)")

        let sweep = try RepeatSimBinary.run(base + ["--sweep", "confirm=1,500", "--expect", "enter.recall>=0.5"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let marks = sweep.lines.dropFirst().map { $0.hasSuffix("✓") }
        #expect(marks == [true, false], "\(sweep.stdout)")
        #expect(sweep.stderr.contains("1 of 2 settings meet every expectation"))
        let none = try RepeatSimBinary.run(base + ["--sweep", "confirm=1,500", "--expect", "enter.fp<0", "--json"])
        #expect(none.status == 3)
        #expect(try jsonLines(none.stdout).allSatisfy { ($0["failed"] as? [String]) == ["enter.fp<0"] })
    }

    // MARK: Scenario

    @Test("each flag of evaluate that generate lacks, put in a scenario, is named as evaluate's")
    func evaluateFlagsInAScenarioAreNamed() throws {
        func options(_ command: String) throws -> Set<String> {
            let help = try RepeatSimBinary.run([command, "--help"]).stdout
            return Set(help.matches(of: /\n\s+--([a-z-]+)/).map { String($0.1) })
        }
        let evaluateOnly = try options("evaluate").subtracting(try options("generate"))
            .subtracting(["regions", "tasks", "version", "help"])
        #expect(evaluateOnly.contains("runs") && evaluateOnly.contains("sweep"), "\(evaluateOnly)")
        let folder = temporaryDirectory("repeat-scenario-keys")
        for key in evaluateOnly.sorted() {
            let scenario = folder + "/\(key).json"
            try #"{"via": "52.52,13.40;52.53,13.41", "\#(key)": "1"}"#.write(
                toFile: scenario, atomically: true, encoding: .utf8)
            let result = try RepeatSimBinary.run(["evaluate", "--scenario", scenario])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("\"\(key)\" is a flag of evaluate, not of the scenario: give it on the command line"),
                "\(key): \(result.stderr)")
        }
    }

    @Test("a scenario run in process scores like the same generate written to files and evaluated")
    func scenarioInProcessMatchesFiles() throws {
        let walk = try Walk(seed: 1)
        let scenario = walk.folder + "/scenario.json"
        try """
        {"via": "\(Self.start.latitude),\(Self.start.longitude);\(Self.end.latitude),\(Self.end.longitude)",
         "devices": 2, "environment": "urban", "regions": "regions.csv"}
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let sweep = ["--sweep", "hysteresis=0,25", "--json"]
        let inProcess = try RepeatSimBinary.run(["evaluate", "--scenario", scenario] + sweep)
        let files = try RepeatSimBinary.run(
            ["evaluate", walk.feed, "--truth", walk.truth, "--regions", walk.regions] + sweep)
        #expect(inProcess.status == 0 && files.status == 0, "\(inProcess.stderr)\n\(files.stderr)")
        #expect(inProcess.stdout == files.stdout)

        let pooled = try RepeatSimBinary.run(["evaluate", "--scenario", scenario, "--runs", "4", "--json"])
        #expect(pooled.status == 0, "\(pooled.stderr)")
        let rows = try jsonLines(pooled.stdout)
        let row = try #require(rows.first)
        #expect(row["runs"] as? Int == 4)
        let enter = try #require(row["enter"] as? [String: Any])
        let recall = try #require(enter["recall"] as? Double)
        let interval = try #require(enter["recall_ci95"] as? [Double])
        #expect(interval.count == 2 && interval[0] <= recall && recall <= interval[1])
        let fileRows = try jsonLines(files.stdout)
        let single = try #require(fileRows.first?["device_hours"] as? Double)
        #expect(abs(try #require(row["device_hours"] as? Double) - 4 * single) < 1e-6)
    }

    @Test("the Višnjan recording as truth with urban copies: the golden sweep")
    func visnjanScenarioGolden() throws {
        let result = try RepeatSimBinary.run([
            "evaluate", "--scenario", RepositoryPaths.track("evaluate/scenario.json"), "--runs", "5", "--sweep",
            "interval=1s,10s", "--sweep", "hysteresis=0,25", "--sweep", "confirm=1,2", "--expect", "enter.recall>=0.9",
            "--expect", "enter.precision>=0.9", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try Golden.expect(
            result.stdout, matches: RepositoryPaths.track("evaluate/expected.jsonl"), suite: "EvaluateCommandTests")
    }

    // MARK: Refusals

    @Test(
        "bad arguments are refused with the flag named",
        arguments: [
            (["--sweep", "hysterisis=0,10"], "did you mean 'hysteresis'"),
            (["--sweep", "confirm=0,1"], "--sweep confirm: '0' must be a whole number"),
            (["--window", "30s"], "--window '30s' is not EARLY,LATE"),
            (["--expect", "enter.recal>=1"], "did you mean 'enter.recall'"),
            (["--runs", "3"], "--runs repeats a --scenario"),
            (
                [
                    "--sweep", "pad=" + (0...100).map(String.init).joined(separator: ","),
                    "--sweep", "dwell=" + (1...100).map(String.init).joined(separator: ","),
                ],
                "--sweep makes 101 × 100 settings, more than 10 000"
            ),
        ])
    func refusals(arguments: [String], message: String) throws {
        // Refused before any file is read.
        let result = try RepeatSimBinary.run(
            ["evaluate", "feed.csv", "--truth", "truth.csv", "--regions", "regions.csv"] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: repeat-sim evaluate"), "\(result.stderr)")
    }

    @Test("--runs past a million is refused before anything runs, where it tried to allocate them all")
    func tooManyRuns() throws {
        let scenario = RepositoryPaths.track("evaluate/scenario.json")
        for runs in ["1000001", "9223372036854775807"] {
            let result = try RepeatSimBinary.run(["evaluate", "--scenario", scenario, "--runs", runs])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("Error: --runs must be at most 1 000 000"), "\(result.stderr)")
        }
    }
}
