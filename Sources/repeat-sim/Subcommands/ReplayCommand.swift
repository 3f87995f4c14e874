import ArgumentParser
import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence

/// `repeat-sim replay FEED... --tasks FILE`: the pipeline on recorded feeds,
/// on the feed's own clock.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay recorded feeds against tasks and places: which reminders fire, when, why.",
        discussion: """
            Decodes each FEED (GPX, NMEA 0183, CSV, gpsd JSON, a KML track, TCX, FIT,
            Google Takeout's Records.json or a phone's Timeline.json; - for standard
            input), puts each device's fixes in time order (--reorder-window), runs
            them through the geofence detector over the places of the tasks (--tasks)
            and of --regions (CSV id,lat,lon,radius[,task], GeoJSON, KML or GPX
            waypoints), and asks each task's recurrence gate whether an arrival may
            remind. The feed's own time is the clock: due reminders fire at their own
            time between fixes, a task overdue at the first fix fires there, and
            completions in the tasks file apply as the clock passes them.

            With --json, one line per reminder:
              {"time":"2025-03-17T16:00:00Z","kind":"location","task":"cat-medicine",
               "title":"Buy cat medicine","region":"Pharmacy","device":"phone",
               "distance_m":42.1,"due":"…","window_start":"…"}
            kind is location (an arrival while the gate is open: t >= window start -
            lead, not within --cooldown of the last one of the cycle) or due.
            --explain adds {"kind":"suppressed","reason":…} lines for arrivals and
            dues that stayed quiet: not-due, cooldown, completed (the schedule), and
            reminders the platform lost: accuracy (fixes worse than --max-accuracy),
            pending-limit, monitor-limit (a place outside the --monitor-limit
            nearest); the summary says what each limit missed;
            --transitions adds the raw geofence transitions:
              {"kind":"enter","time":"…","region":"pharmacy","device":"phone",
               "tasks":["cat-medicine"],"distance_m":12.3}
            (one line per transition; "tasks" lists the tasks at the place, when
            --tasks names any; enter after --confirm fixes inside; exit once
            distance - accuracy > radius + hysteresis for --exit-confirm fixes;
            dwell after --dwell inside; cross when the straight line between two
            fixes passes through a region neither fix is in, at the time of closest
            approach).

            --report FILE.html writes one self-contained page (inline SVG and CSS,
            nothing fetched; opens offline): a map of each device's track, the places
            at their true size, and every reminder, suppressed arrival (hollow; hover
            for the reason) and transition; a timeline per task (cycles, window,
            overdue, completions, reminders); and the counts. Tracks are simplified
            for drawing only.

            Without --tasks every region behaves as an always-due task named after
            it; with --transitions and no --tasks only transitions are printed.
            Fixes without time, older than the reorder window, invalid, or less
            accurate than --max-accuracy change nothing; they are counted in the
            summary on stderr. With several FEEDs, fixes without a device of their
            own belong to a device named after the file. Ctrl-C (or SIGTERM,
            SIGHUP) stops the reading: what was read is finished and printed with
            the summary, and the status is 130; a paced run (--speed) ends its
            output where its clock stood.

            Every core works by default: devices are spread over --jobs worker threads
            by a fixed hash of their name, decoding runs ahead on a thread of its own,
            and the output is put back in the single thread's order, the same bytes
            whatever N. --shard I/N runs the devices of shard I only (the same hash),
            for job arrays across machines: `repeat-sim merge` combines the N shards'
            JSON lines into the output of the run without --shard. Of several feed
            files, a shard leaves unread the NMEA and GPX files named after other
            shards' devices (not under --strict); it reads every CSV and gpsd file.

            Examples:
              repeat-sim replay Tracks/cat-medicine/drives.gpx \\
                --tasks Tracks/cat-medicine/scenario.json --explain
              repeat-sim replay Tracks/gpx/gpxpy-visnjan-car.gpx \\
                --regions Tracks/visnjan-errands/places.csv \\
                --tasks Tracks/visnjan-errands/tasks.json --monitor-limit 2 --explain
              repeat-sim replay walk.gpx --regions shops.csv --transitions --json
              repeat-sim replay big.nmea --tasks tasks.json --json > reminders.jsonl
              repeat-sim replay fleet.csv --tasks tasks.json --json \\
                --shard 2/8 > part-2.jsonl
              repeat-sim replay Tracks/cat-medicine/drives.gpx \\
                --tasks Tracks/cat-medicine/scenario.json --report cat-medicine.html
            """
    )

    @Argument(help: ArgumentHelp("Feed files to replay; - reads standard input.", valueName: "FEED"))
    var feeds: [String] = []

    @OptionGroup(title: "Input") var feedOptions: FeedOptions

    @Flag(help: "Exit with status 2 at the first malformed record or region.")
    var strict = false

    @OptionGroup(title: "Places and tasks") var places: PlacesOptions

    @OptionGroup(title: "Place book") var placeBook: PlaceBookOptions

    @OptionGroup(title: "Output") var output: OutputOptions

    @OptionGroup(title: "Output") var files: ReplayFileOptions

    @Option(
        help: ArgumentHelp("Pace: max (as fast as possible), realtime, or N times real time. (default: max)", valueName: "speed"),
        transform: Pace.parse)
    var speed = Pace.max

    @OptionGroup(title: "Reminders") var reminder: ReminderOptions

    @OptionGroup(title: "Geofence") var geofence: GeofenceOptions

    @OptionGroup(title: "Parallel") var parallel: ParallelOptions

    func validate() throws {
        var problems: [String] = []
        if feeds.isEmpty { problems.append("give at least one FEED (a file, or - for standard input)") }
        // The feed, the regions and the tasks may be read at once (--jobs).
        if (feeds + [places.regions, places.tasks].compactMap { $0 }).filter({ $0 == "-" }).count > 1 {
            problems.append("standard input (-) can be read only once: for one FEED, --regions or --tasks")
        }
        if places.regions == nil, places.tasks == nil { problems.append("give --tasks FILE, --regions FILE, or both") }
        problems +=
            geofence.problems() + reminder.problems() + feedOptions.problems() + placeBook.problems()
            + parallel.problems() + shardProblems()
        if let first = problems.first { throw ValidationError(first) }
    }

    /// What `--shard` cannot go with: output that needs every device.
    private func shardProblems() -> [String] {
        guard parallel.shard != nil else { return [] }
        let refused = [
            ("--report", files.report != nil), ("--geojson", files.geojson != nil), ("--exec", output.exec != nil),
            ("--places", placeBook.places), ("--speed", speed != .max),
        ]
        return refused.filter(\.1).map {
            "\($0.0) cannot go with --shard: a shard sees only some devices; run without --shard for it"
        }
    }

    func run() throws {
        try checkOutputsAreNotInputs(
            [("--geojson", files.geojson), ("--report", files.report)], inputs: feeds + [places.regions, places.tasks])
        try checkFeeds(feeds, format: feedOptions.format.format)
        // With threads to spare, the first feed is decoded while the tasks
        // and regions are read.
        let early =
            parallel.threads > 1
            ? FeedRun.startReading(feeds[0], format: feedOptions.format.format, options: feedOptions.decodingOptions())
            : nil
        let run = try prepare(makingSinks: parallel.shard == nil)
        defer { leaveToExit(run) }
        if let shard = parallel.shard {
            return try runShard(shard, stages: run.stages, settings: run.settings, startedEarly: early)
        }
        // Ctrl-C stops the reading; what was read is finished and printed.
        try StopRequest.onSignals { stop in
            var settings = run.settings
            settings.stop = stop
            let feedRun = FeedRun(settings: settings, stage: .pipeline(run.stages), sinks: run.sinks)
            // With the devices' states (100 000 devices: 45M instructions and a
            // cache miss each to free).
            defer { leaveToExit(feedRun) }
            try report(feedRun.run(files: feeds, startedEarly: early), regions: run.stages.regions)
        }
    }

    /// What a run of this command needs besides its feeds: the stages over
    /// the tasks and regions, the sinks of its output, and the settings.
    struct Prepared {
        var stages: ReminderPipeline
        var sinks: [any RunSink]
        var settings: RunSettings
    }

    /// Reads the tasks and regions and sets up the stages, and the output
    /// when `makingSinks` (`replay`, and `merge` from a shard's arguments).
    func prepare(makingSinks: Bool) throws -> Prepared {
        try checkReadable([places.regions, places.tasks].compactMap { $0 })
        let (regions, loaded) = try loadPlaces()
        let tasks = loaded?.tasks ?? []
        if let file = places.tasks, tasks.isEmpty { throw ReplayFailure("no task in \(file): nothing to remind of") }
        var stage = ReminderStage(
            tasks: tasks, taskPositions: loaded?.positions, regions: regions, settings: reminder.settings)
        stage.threads = parallel.threads
        let stages = ReminderPipeline(
            reminders: stage, geofence: geofence.settings,
            reorderSeconds: geofence.reorderSeconds, monitorLimit: reminder.monitorLimit,
            deviceIdleSeconds: geofence.deviceIdleSeconds)
        var settings = RunSettings(label: "replay", format: feedOptions.format.format, decoding: feedOptions.decodingOptions())
        settings.strict = strict
        settings.verbose = feedOptions.verbose
        settings.pace = speed
        settings.namesDevicesAfterFiles = true
        settings.showsProgress = true
        settings.jobs = parallel.threads
        guard makingSinks else { return Prepared(stages: stages, sinks: [], settings: settings) }
        let stdout = ByteWriter.standardOutput()
        var sinks: [any RunSink] = []
        if let geojson = files.geojson {
            sinks.append(try GeoJSONSink(path: geojson, regions: stages.regions, explain: output.explain))
        }
        if let report = files.report {
            let inputs = ReportSink.Inputs(feeds: feeds, tasksFile: places.tasks, regionsFile: places.regions)
            sinks.append(try ReportSink(path: report, inputs: inputs, regions: stages.regions, tasks: tasks))
        }
        sinks.append(
            ReminderLinesSink(
                output: stdout, printing: output.printing(reminders: places.tasks != nil || !output.transitions),
                regionTasks: stages.regionTasks, regions: stages.regions, near: try placeBook.nearestPlaces(),
                threads: parallel.threads))
        if let hook = output.execHook(output: stdout) { sinks.append(hook) }
        return Prepared(stages: stages, sinks: sinks, settings: settings)
    }

    /// The regions and the tasks. With threads to spare, the regions are
    /// read while the tasks are: each leaves a thread idle for a while
    /// (100 000 tasks' ids are recorded on one). A problem with the regions
    /// still comes first.
    private func loadPlaces() throws -> (regions: RegionTable, tasks: TaskFile.Indexed?) {
        let (strict, radius, jobs) = (strict, places.radius, parallel.threads)
        func tasks() throws -> TaskFile.Indexed? { try places.tasks.map { try loadIndexedTasks($0, jobs: jobs) } }
        guard jobs > 1, let path = places.regions else {
            let regions = try places.regions.map { try loadRegions($0, strict: strict, waypointRadius: radius) } ?? []
            return (regions, try tasks())
        }
        let regions = Concurrently { try loadRegions(path, strict: strict, waypointRadius: radius) }
        let loaded = Result { try tasks() }
        return (try regions.value(), try loaded.get())
    }

    /// The summary on stderr and the exit status of a run (`replay`, `merge`):
    /// 130 when a signal stopped it. A run on its feeds that found no
    /// transition, with `regions` far from where the feed begins, is warned
    /// of.
    func report(_ result: FeedRun.Result, regions: RegionTable = []) throws {
        if result.stoppedAtMalformedRecord { throw ExitCode(2) }
        Console.write(
            ReminderSummary(
                label: "replay", statistics: result.pipeline!, limits: reminder.limits(geofence),
                elapsedSeconds: result.elapsedSeconds
            ).text)
        if let stop = result.pacedStop {
            let clock = stop.time.map { " at \(RFC3339.format($0)) on the feed's clock" } ?? ""
            let reminders =
                stop.reminders == 1
                ? "1 reminder it had decided for later was" : "\(stop.reminders) reminders it had decided for later were"
            Console.write("replay: stopped\(clock)" + (stop.reminders == 0 ? "" : "; \(reminders) not printed"))
        }
        if result.stoppedBySignal { throw ExitCode(130) }
        if result.pipeline?.transitions == 0, let start = result.feeds.lazy.compactMap(\.firstPosition).first,
            let warning = RegionReach.of(regions, from: start)?.farWarning
        {
            Console.warn(warning)
        }
        if !result.unreadable.isEmpty { throw ExitCode(1) }
        if let statistics = result.pipeline,
            statistics.detector.accepted + statistics.detector.inaccurate + statistics.detector.invalid + statistics.late == 0
        {
            let names = feeds.map { $0 == "-" ? "standard input" : $0 }.joined(separator: ", ")
            throw ReplayFailure(
                statistics.untimed > 0
                    ? "no fix with a time in \(names): nothing to replay on the feed's clock. A route or a track without "
                        + "times can be driven: repeat-sim generate ROUTE --profile walk | repeat-sim replay - …"
                    : "no fix in \(names): nothing to replay")
        }
    }
}

extension ReplayCommand {
    /// One shard's run: its devices' outcomes as JSON lines on `output`.
    fileprivate func runShard(
        _ shard: ShardChoice, stages: ReminderPipeline, settings: RunSettings, startedEarly: FeedRun.EarlyRead?
    ) throws {
        let header = ShardHeader(
            index: shard.index, count: shard.count, arguments: Array(CommandLine.arguments.dropFirst()),
            directory: FileManager.default.currentDirectoryPath)
        let writer = try ShardWriter(header: header, pipeline: stages, output: ByteWriter.standardOutput())
        let result = FeedRun(settings: settings, stage: .shard(writer), sinks: []).run(
            files: feeds, startedEarly: startedEarly)
        if let summary = writer.summary {
            Console.write(
                "replay --shard \(shard.index)/\(shard.count): \(summary.accepted) fixes evaluated from "
                    + "\(summary.devices) device\(summary.devices == 1 ? "" : "s") of this shard, "
                    + "\(writer.linesWritten) lines for repeat-sim merge; "
                    + (result.feedsLeftOut > 0
                        ? "\(result.feedsLeftOut) of \(feeds.count) feeds left unread (other shards' devices); " : "")
                    + ElapsedText.of(result.elapsedSeconds))
        }
        if result.stoppedAtMalformedRecord { throw ExitCode(2) }
        if !result.unreadable.isEmpty { throw ExitCode(1) }
    }
}

/// Why a replay could not do anything useful: a plain error (exit 1).
struct ReplayFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
