import ArgumentParser
import Pipeline

/// `repeat-sim decode FEED...`: print the fixes a feed decodes to.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print the fixes decoded from GPX, NMEA 0183, CSV, gpsd JSON, KML, TCX, FIT or Google location history feeds.",
        discussion: """
            Each FEED is a file, or - for standard input (a pipe streams: fixes are printed
            as the bytes arrive). The format is detected from the content unless --format
            says it; a serial --device is read as NMEA, gpsd as its JSON. A KML file's
            fixes are its tracks (gx:Track, as Google Earth and GPSBabel write them);
            its placemarks are places, for --regions and place import. A TCX file's
            fixes (Garmin Connect, Strava) are its track points with a position; a
            FIT file's (a watch's or bike computer's activity) are its records with one.
            Google Takeout's location history (Records.json, takeout) gives a fix for
            each of its locations, oldest first however the file lists them: a
            phone's history to replay, each deviceTag a device. Google's on-device
            Timeline export (Timeline.json from a phone's settings, timeline; Android's
            or iOS's) gives its paths' points, each visit's place at the visit's start
            and end, each activity's two ends and its raw positions, merged in time
            order (repeats dropped; a visit ends before the first fix away from it).

            With --json, every fix is one JSON line on stdout, in input order:
              {"time":"2025-03-01T10:00:00Z","lat":52.52,"lon":13.4,"ele":34.0,"speed":1.2,
               "course":90.0,"hdop":0.9,"accuracy":4.5,"device":"..."}
            Absent fields are left out; times are UTC, with fractional seconds when the
            source had them. Without --json a readable table is printed.

            Skipped records (bad checksums, unreadable fields, XML errors, noise…) are
            reported on stderr as FILE:LINE: CODE: MESSAGE, then a summary per feed: fixes,
            skipped by reason, and what was ignored on purpose (GSV, route points,
            comments…).

            Exit status: 0 ok; 1 usage error or unreadable file; 2 with --strict at the
            first malformed record (receiver epochs without a fix or without a date are
            counted but are not malformed input). Under --strict, nothing decoded from the
            read that held the malformed record is printed. Ctrl-C (or SIGTERM, SIGHUP)
            stops the reading of FEEDs: what was read is printed with the summary, and
            the status is 130.

            Live input instead of FEEDs: --device /dev/ttyUSB0 [--baud 9600] reads a serial
            receiver, --gpsd HOST[:PORT] a gpsd server; both run until Ctrl-C (then print
            what they hold and the summary, status 0), reconnect by themselves and report
            connection changes on stderr.

            Examples:
              repeat-sim decode Tracks/gpx/gpxpy-visnjan-car.gpx --json
              cat /dev/ttyACM0 | repeat-sim decode - --format nmea
              repeat-sim decode old-gga-only.log --date 2019-03-08
              repeat-sim decode hike.gpx --waypoints
              repeat-sim decode --gpsd localhost --json
            """
    )

    @Argument(help: ArgumentHelp("Feed files to decode; - reads standard input.", valueName: "FEED"))
    var feeds: [String] = []

    @OptionGroup(title: "Input") var feedOptions: FeedOptions

    @Flag(help: "Exit with status 2 at the first malformed record.")
    var strict = false

    @Flag(help: "List the GPX waypoints (wpt), KML Point placemarks or FIT course points instead of the track points.")
    var waypoints = false

    @OptionGroup(title: "Live input") var live: LiveInputOptions

    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @OptionGroup(title: "Places") var placeBook: PlaceBookOptions

    func validate() throws {
        if let problem = placeBook.problems().first { throw ValidationError(problem) }
        if live.input != nil {
            if !feeds.isEmpty { throw ValidationError("give FEED files or a live input (--device, --gpsd), not both") }
            if waypoints { throw ValidationError("--waypoints reads GPX, KML and FIT files, not a live input") }
            return
        }
        if feeds.isEmpty { throw ValidationError("give at least one FEED (a file, or - for standard input)") }
        if feeds.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        if let problem = feedOptions.problems().first { throw ValidationError(problem) }
    }

    func run() async throws {
        try checkFeeds(feeds, format: feedOptions.format.format)
        var settings = RunSettings(
            label: "decode", format: feedOptions.format.format, decoding: feedOptions.decodingOptions(collectWaypoints: waypoints)
        )
        settings.strict = strict
        settings.verbose = feedOptions.verbose
        let sink = FixLinesSink(
            output: .standardOutput(), json: json, waypoints: waypoints, near: try placeBook.nearestPlaces())
        let result: FeedRun.Result
        if let feed = live.feed(format: feedOptions.format.format) {
            // Ctrl-C ends a live input's run: it flushes and prints its summary, as live does.
            nonisolated(unsafe) let run = FeedRun(settings: settings, stage: .decode, sinks: [sink])
            result = try await StopSignal.cancelling { try await run.run(live: feed) }
        } else {
            // Ctrl-C stops the reading of files; what was read is printed, and the status is 130.
            result = StopRequest.onSignals { stop in
                settings.stop = stop
                return FeedRun(settings: settings, stage: .decode, sinks: [sink]).run(files: feeds)
            }
        }
        for feed in result.feeds { Console.write(feed.line(countingWaypoints: waypoints)) }
        if result.stoppedAtMalformedRecord { throw ExitCode(2) }
        if !result.unreadable.isEmpty { throw ExitCode(1) }
        if result.stoppedBySignal { throw ExitCode(130) }
    }
}
