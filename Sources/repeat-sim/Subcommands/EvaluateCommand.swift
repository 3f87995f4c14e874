import ArgumentParser
import Evaluation
import Foundation
import GeoCore
import Geofencing
import Pipeline

/// `repeat-sim evaluate`: geofence detection on a feed scored against the
/// truth, over a sweep of settings.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score geofence detection against the truth: precision, recall and latency, over sweeps of settings.",
        discussion: """
            True events come from --truth tracks (what `generate --truth` writes: an
            entry where the path between two truth points crosses into a region,
            at the interpolated moment; an exit likewise; none where a track
            starts inside) or from --truth-events (JSON lines
            {"kind":"enter","time":…,"region":…,"device":…} or a visits CSV
            device,region,enter,exit). Detected events are the detector's
            transitions on FEED with the geofence flags: enter and cross are
            entries, exit and cross exits. Per device, region and kind, each true
            event takes the earliest unmatched detection within --window; TP =
            matched, FN = true events left, FP = detections left, latency =
            detected − true. Feed devices are matched to truth devices by name
            (dev1.nmea to dev1; one each matches whatever the names).

            --sweep runs every combination of the values given, 10 000 at most
            (the feed is read once, every setting detecting as it comes, on
            every core, and not kept: --report reads it once more for the best
            setting's detail; a FEED or truth through a pipe is copied to a
            temporary file in TMPDIR, else /tmp, to be read again); --expect
            marks the rows that meet every condition and exits 3 when none does
            (or, for one setting, when it fails). With --tasks, the location
            reminders on the feed are scored against those the same tasks give
            on the truth. --scenario generates the feed in process instead, from
            a JSON object of generate's flags (plus "regions" and "tasks"), with
            seeds 1…--runs, and pools the runs (95 % intervals: Wilson for
            proportions).

            --shard I/N scores the devices whose name up to its first dot hashes into
            shard I of N (dev1.nmea falls with its truth dev1; a lone feed device
            takes a lone truth device whatever their names), or with --scenario the
            runs n with (n − 1) mod N = I, and writes JSON lines instead of the rows:
            `repeat-sim merge` adds the N shards' files into the same bytes, summary
            and exit status as the run without --shard. Each shard reads every FEED
            and truth file; not with --tasks or --report.

            JSON (--json), one object per setting:
              {"setting":{"confirm":2},"enter":{"tp","fp","fn","precision","recall",
               "f1","latency_s":{"p50","p90","p95","max"}},"exit":{…},"all":{…},
               "visits":{"true","recalled","recall"},"false_entries_per_100h",
               "device_hours","km"}     (null where a ratio is undefined)

            Examples:
              repeat-sim generate --via "52.5200,13.4050;52.5163,13.3777" --profile car \\
                --environment urban --interval 1s --out drive.nmea --truth truth.csv
              repeat-sim evaluate drive.nmea --truth truth.csv --regions shops.csv \\
                --sweep interval=1s,10s,60s --sweep hysteresis=0,25 --sweep confirm=1,2
              repeat-sim evaluate --scenario car.json --runs 20 \\
                --expect 'enter.recall>=0.95'
              repeat-sim evaluate fleet.csv --truth truth.csv --regions shops.csv \\
                --sweep confirm=1,2 --shard 3/8 > part-3.jsonl     # and 0…7 alike, then
              repeat-sim merge part-*.jsonl
            """
    )

    @Argument(help: ArgumentHelp("Feed files to score; - reads standard input.", valueName: "FEED"))
    var feeds: [String] = []

    @OptionGroup(title: "Truth") var truth: TruthOptions

    @OptionGroup(title: "Input") var feedOptions: FeedOptions

    @Flag(help: "Exit with status 2 at the first malformed record or region.")
    var strict = false

    @OptionGroup(title: "Places and tasks") var places: PlacesOptions

    @OptionGroup(title: "Evaluation") var evaluation: EvaluationOptions

    @OptionGroup(title: "Reminders") var reminder: ReminderOptions

    @OptionGroup(title: "Geofence") var geofence: GeofenceOptions

    func validate() throws {
        var problems: [String] = []
        if truth.scenario == nil {
            if feeds.isEmpty { problems.append("give at least one FEED (a file, or - for standard input), or --scenario FILE") }
            if truth.tracks.isEmpty == (truth.events == nil) {
                problems.append("give the truth: --truth TRACK (repeatable) or --truth-events FILE")
            }
            if places.regions == nil, places.tasks == nil { problems.append("give --regions FILE, --tasks FILE, or both") }
            if truth.runs != nil { problems.append("--runs repeats a --scenario; a recorded FEED is scored once") }
        } else if !feeds.isEmpty || !truth.tracks.isEmpty || truth.events != nil {
            problems.append("--scenario generates the feed and the truth; give no FEED, --truth or --truth-events")
        }
        if let runs = truth.runs, runs < 1 { problems.append("--runs must be at least 1") }
        // Every run's scores are kept until they are pooled.
        if let runs = truth.runs, runs > Self.maximumRuns {
            problems.append("--runs must be at most 1 000 000")
        }
        if feeds.filter({ $0 == "-" }).count + truth.tracks.filter({ $0 == "-" }).count > 1 {
            problems.append("standard input (-) can be read only once")
        }
        if evaluation.shard != nil, places.tasks != nil { problems.append(Self.tasksCannotShard) }
        problems += geofence.problems() + reminder.problems() + feedOptions.problems() + evaluation.problems()
        if let first = problems.first { throw ValidationError(first) }
    }

    func run() throws {
        try checkOutputsAreNotInputs(
            [("--report", evaluation.report)],
            inputs: feeds + truth.tracks + [truth.events, truth.scenario, places.regions, places.tasks])
        try checkFeeds(feeds, format: feedOptions.format.format)
        try checkFeeds(truth.tracks, format: nil)
        try checkReadable([truth.events, truth.scenario, places.regions, places.tasks].compactMap { $0 })
        let started = Date()
        let window = try evaluation.matchWindow()
        let expectations = try evaluation.expectations()
        var base = EvaluationSetting(
            geofence: geofence.settings, reorderSeconds: geofence.reorderSeconds, monitorLimit: reminder.monitorLimit)
        base.deviceIdleSeconds = geofence.deviceIdleSeconds
        let settings = try evaluation.settings(base: base)
        let scenario = try truth.scenario.map(EvaluationScenario.init(path:))
        let regionsFile = places.regions ?? scenario?.regions
        let tasksFile = places.tasks ?? scenario?.tasks
        let regions = try regionsFile.map { try loadRegions($0, strict: strict, waypointRadius: places.radius) } ?? []
        let jobs = evaluation.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let tasks = try tasksFile.map { try loadTasks($0, jobs: jobs) } ?? []
        let scoring = FeedEvaluation(regions: Array(regions), tasks: tasks, reminderSettings: reminder.settings)
        guard !scoring.regions.isEmpty else {
            throw EvaluateFailure(
                regionsFile == nil && tasksFile == nil
                    ? "give --regions FILE (or \"regions\" in the scenario): there is nothing to detect"
                    : "no usable region in \([regionsFile, tasksFile].compactMap { $0 }.joined(separator: " or ")): nothing to detect"
            )
        }
        // Created first, so that a bad path fails before the evaluation.
        if let report = evaluation.report, !FileManager.default.createFile(atPath: report, contents: nil) {
            throw EvaluateFailure("--report: \(RunError.creating(report))")
        }
        let runner = EvaluationRunner(evaluation: scoring, settings: settings, window: window, jobs: jobs)
        let progress = ProgressBar(enabled: Console.stderrIsTerminal)
        let spools = try pipeSpools()
        if let shard = evaluation.shard {
            guard tasksFile == nil else { throw EvaluateFailure(Self.tasksCannotShard) }
            return try runShard(
                EvaluationShard(index: shard.index, count: shard.count), runner: runner, scenario: scenario,
                spools: spools, progress: progress, started: started)
        }
        let rows: [EvaluationRunner.Row]
        let described: String
        var streamed: StreamedFeed?
        var generatedRun: (scenario: EvaluationScenario, run: ScoredRun)?
        if let scenario {
            let count = truth.runs ?? 1
            let detail = "\(count) run\(count == 1 ? "" : "s") × \(settings.count) settings"
            let show: @Sendable (Double) -> Void = { progress.show("evaluate", fraction: $0, detail: detail) }
            let firstRun = FirstRun(kept: evaluation.report != nil)
            rows = try runner.rows(
                runs: count,
                score: { seed, jobs in
                    // One run: how far through its time the feed is.
                    let scored = try scenario.score(
                        seed: seed, evaluation: scoring, settings: settings, jobs: jobs, progress: count > 1 ? nil : show)
                    if seed == 1 { firstRun.keep(scored) }
                    return (scored.truth, scored.detections)
                },
                progress: show)
            described = "\(count) run\(count == 1 ? "" : "s") of \(truth.scenario!)"
            generatedRun = firstRun.run.map { (scenario, $0) }
        } else {
            let feed = try streamedFeed(runner: runner, scoring: scoring, spools: spools)
            rows = runner.rows(truth: feed.truth, detections: feed.detections)
            Self.warnOfFarRegions(rows, regions: regions, start: feed.firstPosition)
            described = feed.described
            streamed = feed
        }
        progress.clear()
        printRows(rows, expectations: expectations)
        if let report = evaluation.report {
            let reporter = EvaluationReporter(
                evaluation: scoring, window: window, expectations: expectations, subtitle: commandLine)
            let html: String
            let count = truth.runs ?? 1
            if let (scenario, run) = generatedRun {
                // Run 1 is generated once more for its detail.
                let plan = reporter.plan(rows: rows, truth: run.truth, detections: run.detections, span: run.span)
                let gathered = try scenario.gather(seed: 1, plan: plan)
                html = reporter.html(rows: rows, plan: plan, fixes: gathered.fixes, truth: gathered.truth, runs: count)
            } else if let streamed {
                let plan = reporter.plan(
                    rows: rows, truth: streamed.truth, detections: streamed.detections, span: streamed.span)
                let gathered = try gather(plan, keptTracks: streamed.keptTracks, spools: spools, jobs: jobs)
                html = reporter.html(rows: rows, plan: plan, fixes: gathered.fixes, truth: gathered.truth, runs: 1)
            } else {
                preconditionFailure("a report has a generated or a streamed feed")
            }
            try writeReport(html, to: report)
        }
        Console.write(summary(rows, described: described, elapsed: Date().timeIntervalSince(started)))
        try check(expectations, rows: rows)
    }

    /// Warns when no setting met a true event or made a detection and the
    /// regions lie far from where the feed begins (`start`).
    static func warnOfFarRegions(_ rows: [EvaluationRunner.Row], regions: RegionTable, start: Coordinate?) {
        let all = rows.map(\.scores.all)
        guard all.allSatisfy({ $0.truePositives + $0.falsePositives + $0.falseNegatives == 0 }), let start,
            let warning = RegionReach.of(regions, from: start)?.farWarning
        else { return }
        Console.warn(warning)
    }

    /// The most `--runs`: at a tenth of a second a run, a day's work.
    static let maximumRuns = 1_000_000

    /// Why `--tasks` and `--shard` do not go together.
    static let tasksCannotShard =
        "--tasks cannot go with --shard: a task's reminders span its devices (one cooldown for all); "
        + "run without --shard to score them"

    /// The rows on stdout: JSON lines with --json, else the table.
    func printRows(_ rows: [EvaluationRunner.Row], expectations: [Expectation]) {
        let stdout = ByteWriter.standardOutput()
        let lines =
            evaluation.json
            ? rows.map { $0.json(expectations: expectations) } : EvaluationTable(rows: rows, expectations: expectations).lines
        for line in lines { stdout.write(line + "\n") }
        stdout.flush()
    }

    /// The command as a report's subtitle: files by their names, pipes by
    /// their paths.
    private var commandLine: String {
        func name(_ path: String) -> String { isRegularFile(path) ? (path as NSString).lastPathComponent : path }
        var words = ["repeat-sim evaluate"] + feeds.map(name)
        if let scenario = truth.scenario {
            words += ["--scenario", name(scenario)] + (truth.runs.map { ["--runs", "\($0)"] } ?? [])
        }
        words += truth.tracks.flatMap { ["--truth", name($0)] } + (truth.events.map { ["--truth-events", name($0)] } ?? [])
        words += (places.regions.map { ["--regions", name($0)] } ?? []) + (places.tasks.map { ["--tasks", name($0)] } ?? [])
        words += evaluation.sweep.flatMap { ["--sweep", $0] } + evaluation.expect.flatMap { ["--expect", "'\($0)'"] }
        return words.joined(separator: " ")
    }

    /// Writes the report's page.
    private func writeReport(_ html: String, to path: String) throws {
        do { try Data(html.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw EvaluateFailure("cannot write \"\(path)\" for --report: \(error.localizedDescription)")
        }
    }

    /// The line on stderr after the table.
    func summary(_ rows: [EvaluationRunner.Row], described: String, elapsed: Double) -> String {
        guard let first = rows.first else { return "evaluate: nothing evaluated" }
        let scores = first.scores
        let trueEntries = scores.enter.truePositives + scores.enter.falseNegatives
        let trueExits = scores.exit.truePositives + scores.exit.falseNegatives
        var text = "evaluate: \(rows.count) setting\(rows.count == 1 ? "" : "s") on \(described); "
        text += "\(trueEntries) true entries, \(trueExits) true exits"
        if let coverage = scores.coverage {
            text += String(format: " over %.1f device-hours, %.1f km", coverage.deviceHours, coverage.kilometres)
        }
        // What the first setting's stages set aside (the same for every
        // setting but the accuracy gate and the decimation).
        let counts = first.statistics
        let ignored = [
            (counts.detector.inaccurate, "inaccurate"), (counts.detector.invalid, "invalid"), (counts.untimed, "without time"),
            (counts.late, "late"),
        ].filter { $0.0 > 0 }
        if !ignored.isEmpty {
            text += "; fixes ignored: " + ignored.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        }
        return text + "; " + ElapsedText.of(elapsed)
    }

    /// Exit 3 when the expectations fail: for one setting, any of them;
    /// for a sweep, when no row meets every one.
    func check(_ expectations: [Expectation], rows: [EvaluationRunner.Row]) throws {
        guard !expectations.isEmpty else { return }
        let meeting = rows.filter { row in expectations.allSatisfy { $0.holds(for: row.scores) } }
        if rows.count == 1, let row = rows.first {
            let failed = expectations.filter { !$0.holds(for: row.scores) }
            for expectation in failed {
                let value = row.scores.value(at: expectation.path).flatMap { $0 }
                Console.write(
                    "evaluate: expectation failed: \(expectation) (\(expectation.path) is \(value.map(EvaluationTable.number) ?? "undefined"))"
                )
            }
            if !failed.isEmpty { throw ExitCode(3) }
        } else if meeting.isEmpty {
            Console.write(
                "evaluate: no setting meets every expectation (\(expectations.map(\.description).joined(separator: ", ")))")
            throw ExitCode(3)
        } else {
            Console.write("evaluate: \(meeting.count) of \(rows.count) settings meet every expectation (marked ✓)")
        }
    }
}

/// Run 1 of a `--scenario` evaluation, kept (its truth and detections,
/// not its feed) for the report's detail; written by the thread that
/// scores it, read once every run is scored.
private final class FirstRun: @unchecked Sendable {
    private let kept: Bool
    private(set) var run: ScoredRun?

    init(kept: Bool) { self.kept = kept }

    func keep(_ run: ScoredRun) { if kept { self.run = run } }
}
