import ArgumentParser
import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Pipeline

/// `repeat-sim replay FEED... --regions FILE --transitions`: the geofence
/// path of the pipeline on recorded feeds.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay recorded feeds against regions and print the geofence transitions.",
        discussion: """
            Decodes each FEED (GPX, NMEA 0183, CSV or gpsd JSON; - for standard input),
            puts each device's fixes in time order (--reorder-window), and runs them
            through the geofence detector over the regions of --regions (CSV
            id,lat,lon,radius[,task] or a GeoJSON FeatureCollection of Points with a radius
            property, Polygons and MultiPolygons).

            With --transitions every transition is printed; with --json as one line
            each:
              {"kind":"enter","time":"2025-03-01T10:00:05Z","region":"pharmacy",
               "device":"phone","distance_m":12.3}
            kind is enter, exit, dwell or cross (tile38's words): enter after --confirm
            fixes inside; exit once distance - accuracy > radius + hysteresis for
            --exit-confirm fixes; dwell after --dwell inside; cross when the straight
            line between two fixes passes through a region neither fix is in, stamped
            at the time of closest approach.

            Fixes without time, older than the reorder window, invalid, or less accurate
            than --max-accuracy change nothing; they are counted in the summary on stderr.
            With several FEEDs, fixes without a device of their own belong to a device
            named after the file.

            Examples:
              repeat-sim replay walk.gpx --regions shops.csv --transitions --json
              repeat-sim replay a.nmea b.nmea --regions parks.geojson --transitions \\
                --dwell 5m
            """
    )

    @Argument(help: ArgumentHelp("Feed files to replay; - reads standard input.", valueName: "FEED"))
    var feeds: [String] = []

    @Option(help: ArgumentHelp("Regions to watch: CSV (id,lat,lon,radius[,task]) or GeoJSON.", valueName: "file"))
    var regions: String?

    @Flag(help: "Print the raw geofence transitions (enter, exit, dwell, cross).")
    var transitions = false

    @Option(help: "The feed format (gpx, nmea, csv, gpsd), or auto to detect it from the content.")
    var format: FeedFormatChoice = .auto

    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @Flag(help: "Exit with status 2 at the first malformed record or region.")
    var strict = false

    @Option(help: ArgumentHelp("The UTC date of an NMEA log that carries none (GGA only).", valueName: "YYYY-MM-DD"))
    var date: String?

    @OptionGroup var geofence: GeofenceOptions

    func validate() throws {
        var problems = geofence.problems()
        if feeds.isEmpty { problems.append("give at least one FEED (a file, or - for standard input)") }
        if feeds.filter({ $0 == "-" }).count > 1 { problems.append("standard input (-) can be read only once") }
        if regions == nil { problems.append("give --regions FILE (the geofence-only replay needs regions)") }
        if !transitions { problems.append("add --transitions: without tasks, replay prints the geofence transitions") }
        if let date, DecodeCommand.days(fromDate: date) == nil { problems.append("--date '\(date)' is not a date like 2019-03-08") }
        if let first = problems.first { throw ValidationError(first) }
    }

    func run() throws {
        let regionsPath = regions!
        guard let data = FileManager.default.contents(atPath: regionsPath) else {
            Diagnostics.write("Error: cannot read \(regionsPath)")
            throw ExitCode(1)
        }
        let loaded = LoadedRegions.load([UInt8](data), source: regionsPath)
        for diagnostic in loaded.diagnostics {
            Diagnostics.write("\(diagnostic)")
            if strict { throw ExitCode(2) }
        }
        var replay = GeofenceReplay(
            regions: loaded.regions, settings: try geofence.settings(), reorderSeconds: try geofence.reorderSeconds(),
            json: json)
        let options = FeedDecodingOptions(defaultDate: date.flatMap(DecodeCommand.days(fromDate:)))
        var failed = false
        for feed in feeds {
            let name = feed == "-" ? "<stdin>" : feed
            let device = feeds.count > 1 ? (feed as NSString).lastPathComponent : nil
            var malformed = false
            do {
                try FeedFileDecoding.decode(path: feed, format: format.format, options: options) { batch in
                    for diagnostic in batch.diagnostics {
                        let where_ = diagnostic.location.line > 0 ? "\(diagnostic.location.line)" : "byte \(diagnostic.location.byteOffset)"
                        Diagnostics.write("\(name):\(where_): \(diagnostic.code.rawValue): \(diagnostic.message)")
                        if strict, diagnostic.isInputError {
                            malformed = true
                            return false
                        }
                    }
                    for var fix in batch.fixes {
                        if fix.device == nil { fix.device = device }
                        replay.push(fix, feed: name)
                    }
                    replay.output.flush()
                    return true
                }
            } catch let error as FileReadError {
                Diagnostics.write("Error: \(error)")
                failed = true
                continue
            }
            if malformed {
                replay.output.flush()
                throw ExitCode(2)
            }
        }
        replay.finish()
        Diagnostics.write(replay.summary)
        if failed { throw ExitCode(1) }
    }
}
