import ArgumentParser
import FeedParsing
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
            Decodes each FEED (GPX, NMEA 0183, CSV or gpsd JSON; - for standard
            input), puts each device's fixes in time order (--reorder-window), runs
            them through the geofence detector over the places of the tasks
            (--tasks) and of --regions (CSV id,lat,lon,radius[,task] or GeoJSON), and
            asks each task's recurrence gate whether an arrival may remind. The feed's
            own time is the clock: due reminders fire at their own time between
            fixes, a task overdue at the first fix fires there, and completions in
            the tasks file apply as the clock passes them.

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
               "distance_m":12.3}
            (enter after --confirm fixes inside; exit once distance - accuracy >
            radius + hysteresis for --exit-confirm fixes; dwell after --dwell
            inside; cross when the straight line between two fixes passes through a
            region neither fix is in, at the time of closest approach).

            Without --tasks every region behaves as an always-due task named after
            it; with --transitions and no --tasks only transitions are printed.
            Fixes without time, older than the reorder window, invalid, or less
            accurate than --max-accuracy change nothing; they are counted in the
            summary on stderr. With several FEEDs, fixes without a device of their
            own belong to a device named after the file.

            Examples:
              repeat-sim replay Tracks/cat-medicine/drives.gpx \\
                --tasks Tracks/cat-medicine/scenario.json --explain
              repeat-sim replay Tracks/gpx/gpxpy-visnjan-car.gpx \\
                --regions Tracks/visnjan-errands/places.csv \\
                --tasks Tracks/visnjan-errands/tasks.json --monitor-limit 2 --explain
              repeat-sim replay walk.gpx --regions shops.csv --transitions --json
              repeat-sim replay big.nmea --tasks tasks.json --json > reminders.jsonl
            """
    )

    @Argument(help: ArgumentHelp("Feed files to replay; - reads standard input.", valueName: "FEED"))
    var feeds: [String] = []

    @Option(help: ArgumentHelp("Regions to watch: CSV (id,lat,lon,radius[,task]) or GeoJSON.", valueName: "file"))
    var regions: String?

    @Option(help: ArgumentHelp("Tasks file (JSON, as `task import` reads) whose places and repeat rules to replay.", valueName: "file"))
    var tasks: String?

    @Flag(help: "Print the raw geofence transitions (enter, exit, dwell, cross).")
    var transitions = false

    @Option(help: ArgumentHelp("Pace: max (as fast as possible), realtime, or N times real time.", valueName: "speed"))
    var speed = "max"

    @Option(help: ArgumentHelp("Also write the replay as GeoJSON (regions, tracks, reminders) for QGIS or geojson.io.", valueName: "file"))
    var geojson: String?

    @OptionGroup var feedOptions: FeedOptions

    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @Flag(help: "Exit with status 2 at the first malformed record or region.")
    var strict = false

    @OptionGroup var reminder: ReminderOptions
    @OptionGroup var geofence: GeofenceOptions

    func validate() throws {
        var problems = geofence.problems()
        if feeds.isEmpty { problems.append("give at least one FEED (a file, or - for standard input)") }
        if feeds.filter({ $0 == "-" }).count > 1 { problems.append("standard input (-) can be read only once") }
        if regions == nil, tasks == nil { problems.append("give --tasks FILE, --regions FILE, or both") }
        problems += reminder.problems()
        if Self.pace(speed) == nil { problems.append("--speed '\(speed)' is not max, realtime or a positive number") }
        problems += feedOptions.problems()
        if let first = problems.first { throw ValidationError(first) }
    }

    /// Feed seconds per wall second for `--speed`: `nil` inside for max,
    /// `nil` outside for a value that is not a speed.
    static func pace(_ text: String) -> Double?? {
        switch text.lowercased() {
        case "max": return .some(nil)
        case "realtime": return .some(1)
        default:
            guard let factor = Double(text), factor > 0, factor.isFinite else { return nil }
            return .some(factor)
        }
    }

    func run() throws {
        var bulk: [Region] = []
        if let regionsPath = regions {
            let loaded = LoadedRegions.load([UInt8](try readInput(regionsPath)), source: regionsPath)
            for diagnostic in loaded.diagnostics {
                Diagnostics.write("\(diagnostic)")
                if strict { throw ExitCode(2) }
            }
            bulk = loaded.regions
        }
        let taskList = try tasks.map { try TaskFile.decode(readInput($0)) } ?? []
        var replay = try ReplaySession(
            tasks: taskList, regions: bulk, reminder: reminder, geofence: geofence,
            printing: .init(transitions: transitions, reminders: tasks != nil || !transitions, explain: reminder.explain, json: json),
            geojson: geojson)
        replay.pace = Self.pace(speed) ?? nil
        let options = feedOptions.decodingOptions()
        var failed = false
        var progress = ReplayProgress(feeds: feeds)
        for feed in feeds {
            let name = feed == "-" ? "<stdin>" : feed
            let device = feeds.count > 1 ? (feed as NSString).lastPathComponent : nil
            var malformed = false
            var bytesRead = 0
            do {
                try FeedFileDecoding.decode(
                    path: feed, format: feedOptions.format.format, options: options, onRead: { bytesRead = $0 }
                ) { batch in
                    if !batch.diagnostics.isEmpty { progress.clear() }
                    for diagnostic in batch.diagnostics {
                        Diagnostics.write(diagnostic.located(in: name))
                        if strict, diagnostic.isInputError {
                            malformed = true
                            return false
                        }
                    }
                    if let device {
                        for index in batch.fixes.indices where batch.fixes[index].device == nil {
                            batch.fixes[index].device = device
                        }
                    }
                    replay.push(batch.fixes, feed: name)
                    replay.output.flush()
                    progress.update(bytes: bytesRead, fixes: replay.fixesEvaluated, time: replay.feedTime)
                    return true
                }
            } catch let error as FileReadError {
                progress.clear()
                Diagnostics.write("Error: \(error)")
                failed = true
                continue
            }
            progress.finishFeed(bytes: bytesRead)
            if malformed {
                replay.output.flush()
                throw ExitCode(2)
            }
        }
        progress.clear()
        replay.finish()
        Diagnostics.write(replay.summary("replay"))
        if failed { throw ExitCode(1) }
    }
}
