import ArgumentParser
import Pipeline
import TaskStore

/// `repeat-sim live`: the pipeline on a live feed, with the receiver's time
/// as the clock.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run the reminders on a live GPS feed: a serial receiver, gpsd, or standard input.",
        discussion: """
            The same stages as replay, fed by --device TTY [--baud N], --gpsd
            HOST[:PORT] or - (standard input, e.g. cat /dev/ttyACM0 | repeat-sim live -).
            The receiver's time is the clock. Tasks come from the store (--db) unless
            --tasks gives a file; with the store, every reminder is also written to its
            notification log, and the tasks are read again every --reload seconds, so
            a `task done` from another shell takes effect without a restart (places
            are read once at start).

            A --device is read as NMEA unless --format says otherwise. A receiver that is
            unplugged, sends garbage or goes silent is reported on stderr and
            reconnected; one whose first KiB holds no NMEA sentence is asked whether
            it talks at another --baud; one whose GPS week number has rolled over
            (its dates 1024 weeks behind the computer's clock) has its times read that
            much later, with a warning. Epochs without a fix move the clock on as fixes
            do, and after 1 s without a byte what is held is released, so an
            arrival's reminder never waits for input that may not come. Ctrl-C (or
            SIGTERM, SIGHUP) stops reading, flushes the output, prints the summary and
            exits 0.

            Examples:
              repeat-sim live --device /dev/ttyACM0 --baud 9600
              repeat-sim live --gpsd localhost --json --exec 'notify-send "$REPEAT_TITLE"'
            """
    )

    @Argument(help: ArgumentHelp("- reads the feed from standard input.", valueName: "-"))
    var input: String?

    @OptionGroup(title: "Live input") var live: LiveInputOptions

    @OptionGroup(title: "Input") var feedOptions: FeedOptions

    @Option(help: ArgumentHelp("Tasks file (JSON) instead of the store's tasks.", valueName: "file"))
    var tasks: String?

    @Option(
        help: ArgumentHelp(
            "Regions to watch besides the tasks' places: CSV, GeoJSON, KML or GPX waypoints.", valueName: "file"))
    var regions: String?

    @Option(help: ArgumentHelp("Radius in metres of each GPX waypoint in --regions.", valueName: "metres"))
    var radius: Double = 100

    @Option(
        help: ArgumentHelp("How often to re-read the store's tasks. (default: 5s)", valueName: "duration"),
        transform: DurationArgument.parse)
    var reload = DurationArgument(5, .seconds)

    @OptionGroup var store: StoreOptions

    @OptionGroup(title: "Output") var output: OutputOptions

    @OptionGroup(title: "Reminders") var reminder: ReminderOptions

    @OptionGroup(title: "Geofence") var geofence: GeofenceOptions

    func validate() throws {
        var problems = feedOptions.problems() + geofence.problems() + reminder.problems()
        switch (input, live.input) {
        case (nil, nil): problems.append("give a live input: --device TTY, --gpsd HOST[:PORT], or - for standard input")
        case (.some, .some): problems.append("give one live input: - or --device/--gpsd, not both")
        case (.some(let text), nil) where text != "-":
            problems.append("live reads - (standard input), --device or --gpsd; replay reads files like \(text)")
        default: break
        }
        if !((reload.seconds ?? 0) > 0) { problems.append("--reload must be a positive duration, e.g. 5s") }
        if let first = problems.first { throw ValidationError(first) }
    }

    func run() async throws {
        let database = tasks == nil ? try store.open() : nil
        let taskList = try tasks.map { try loadTasks($0) } ?? database?.tasks() ?? []
        let bulk = try regions.map { try loadRegions($0, strict: false, waypointRadius: radius) } ?? []
        if taskList.isEmpty, bulk.isEmpty {
            Console.warn("no tasks and no regions to watch: add tasks (`task add`, or --tasks FILE) or --regions FILE")
        }
        let stages = ReminderPipeline(
            reminders: ReminderStage(tasks: taskList, regions: bulk, settings: reminder.settings), geofence: geofence.settings,
            reorderSeconds: geofence.reorderSeconds, monitorLimit: reminder.monitorLimit,
            deviceIdleSeconds: geofence.deviceIdleSeconds)
        let stdout = ByteWriter.standardOutput()
        var sinks: [any RunSink] = []
        // Reminders of --regions that are no task are logged without one.
        let regionsOnly = Set(bulk.map(\.id)).subtracting(taskList.map(\.id))
        let logSink = database.map { NotificationLogSink(log: $0, regionsOnly: regionsOnly, warn: Console.warn) }
        if let logSink { sinks.append(logSink) }
        sinks.append(
            ReminderLinesSink(
                output: stdout, printing: output.printing(reminders: true), regionTasks: stages.regionTasks,
                regions: stages.regions))
        if let hook = output.execHook(output: stdout) { sinks.append(hook) }
        var settings = RunSettings(label: "live", format: feedOptions.format.format, decoding: feedOptions.decodingOptions())
        settings.verbose = feedOptions.verbose
        if let database { settings.taskReload = (reload.seconds ?? 5, { try database.tasks() }) }
        let feed =
            live.feed(format: feedOptions.format.format) ?? LiveFeed(name: "<stdin>", events: standardInputEvents(), format: nil)
        nonisolated(unsafe) let run = FeedRun(settings: settings, stage: .pipeline(stages), sinks: sinks)
        logSink?.onRemovedTask = { [weak run] in run?.requestTaskReload() }
        let result = try await StopSignal.cancelling { try await run.run(live: feed) }
        Console.write(
            ReminderSummary(
                label: "live", statistics: result.pipeline!, limits: reminder.limits(geofence),
                elapsedSeconds: result.elapsedSeconds
            ).text)
    }
}
