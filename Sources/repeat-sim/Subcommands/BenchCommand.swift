import ArgumentParser
import Foundation
import GeoCore
import Geofencing
import Pipeline

/// `repeat-sim bench`: measures the geofence index on this machine, with the
/// brute-force reference on a sample of the same positions in the same run,
/// (`--parse FILE`) the decoding throughput of a feed file, or (`--feed
/// FILE…`) the user's workload end to end with gates for CI.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure geofence lookup and feed decoding speed on this machine.",
        discussion: """
            With --regions R.csv --positions P.csv, builds the spatial grid over the
            regions (id,lat,lon,radius) and looks up every position (t,lat,lon); without
            files it generates a seeded workload like ../shared/bench/gen_workload.py
            (radius 50-500 m, ten 1 Hz random walks) in a city (30 km) or country (800 km)
            box.

            --generate N writes N simulated fixes (a car at 1 Hz, urban error) as
            --format (default nmea) and decodes that file with --parse in the same
            run: generating must be faster than decoding.

            --parse FILE decodes a feed file three times (1 MiB reads, as `decode` does)
            and reports the fastest run: fixes/s, MB/s and peak RSS.

            --feed FILE… --regions R.csv [--tasks T.json] replays the feeds through the
            whole pipeline (as replay does, geofence flags included) --runs times,
            alternating with decode-only runs of the same files, and reports the fastest
            of each (fixes/s), the transitions, reminders and peak RSS. Ratios that hold
            when the machine's speed drifts, in CPU time: pipeline_vs_decode (decoder
            and stages timed in lockstep, read by read) and index_vs_bruteforce (the
            spatial grid and the brute force, slice by slice, on an even sample of the
            fixes; they must agree, else exit 3). Figures that do not depend on the
            load: candidates_per_position, bytes_per_region, allocations_per_1k_fixes
            (malloc counted in process) and instructions_per_fix (perf_event_open;
            null with a note where the kernel offers no counter). For CI: --expect
            'NAME>=VALUE' (names as in the JSON; exit 3 naming the failed one), --save
            FILE.json, and --baseline FILE.json [--max-regression 10%], which gates the
            load-independent figures and the ratios, never the absolute rates; --json
            or --markdown (a table for $GITHUB_STEP_SUMMARY).

            --feed … --shard I/N sizes a job array: its pipeline runs are what `replay
            --shard I/N` does on one node (its feeds decoded, only shard I's devices
            through the per-device stages, their lines for `repeat-sim merge` made and
            dropped), so fixes_per_s is the rate at which that node gets through the
            feed (fixes counts every feed's, also those the shard leaves unread). devices and transitions are the shard's (they add up over the N
            shards to the whole run's); reminders is null, as the merge makes them.
            The JSON's "shard" says which shard ("I/N", null for the whole run), and
            a baseline of another shard is noted. A bench's figures are one machine's
            timings: each shard's report stands alone, and merge takes none.

            Use a release build: swift build -c release --product repeat-sim.

            Examples:
              repeat-sim bench --regions-count 100000 --box city
              repeat-sim bench --regions regions.csv --positions positions.csv --json
              repeat-sim bench --parse track_city.nmea --json
              repeat-sim bench --generate 1000000 --json
              repeat-sim bench --feed track.nmea --regions regions.csv --tasks tasks.json \\
                --expect 'index_vs_bruteforce>=50' --baseline main.json --markdown
              repeat-sim bench --feed fleet.csv --regions depots.csv --shard 0/32 --json
            """
    )

    @Option(name: .customLong("parse"), help: ArgumentHelp("Measure decoding of this feed file instead.", valueName: "file"))
    var parseFile: String?

    @Option(
        name: .customLong("generate"),
        help: ArgumentHelp(
            "Measure `generate` instead: N fixes at 1 Hz (urban error) into --out, then --parse of that file.",
            valueName: "n"))
    var generateCount: Int?

    @Option(
        help: ArgumentHelp("With --generate: the file to write (default: a temporary file, removed after).", valueName: "file"))
    var out: String?

    @Option(help: "The feed format for --parse, --generate and --feed, or auto to detect it from the content.")
    var format: FeedFormatChoice = .auto

    @OptionGroup var geofence: GeofenceBenchOptions

    @OptionGroup(title: "Your workload (--feed)") var feed: BenchFeedOptions

    @OptionGroup(title: "Geofence (with --feed)") var fence: GeofenceOptions

    func validate() throws {
        if let generateCount, generateCount < 2 { throw ValidationError("--generate takes 2 or more fixes") }
        if generateCount != nil, parseFile != nil { throw ValidationError("give --generate N or --parse FILE, not both") }
        if generateCount != nil, let chosen = format.format, !chosen.isWritten {
            throw ValidationError("--generate writes nmea, gpx, csv, gpsd, kml or fit; \(chosen.rawValue) is read only")
        }
        var problems = feed.problems()
        if !feed.feeds.isEmpty {
            if parseFile != nil || generateCount != nil || geofence.positions != nil {
                problems.append("--feed benches your feed; give it without --parse, --generate and --positions")
            }
            if geofence.regions == nil, feed.tasks == nil {
                problems.append("--feed needs --regions FILE, --tasks FILE, or both")
            }
            if geofence.json, feed.markdown { problems.append("give --json or --markdown, not both") }
            problems += fence.problems()
        } else if (geofence.regions == nil) != (geofence.positions == nil) {
            problems.append("give both --regions and --positions, or neither (to generate a workload)")
        }
        if let first = problems.first { throw ValidationError(first) }
    }

    func run() throws {
        if !feed.feeds.isEmpty {
            try runFeed()
            return
        }
        if let generateCount {
            let path = out ?? FileManager.default.temporaryDirectory.appendingPathComponent("repeat-bench-\(getpid()).nmea").path
            defer { if out == nil { try? FileManager.default.removeItem(atPath: path) } }
            let result = try GenerateBench.run(
                fixes: generateCount, format: format.format ?? .nmea, environment: .urban, path: path)
            print(geofence.json ? result.json : result.text)
            return
        }
        if let parseFile {
            let measurement = try ParseBench(path: parseFile, format: format.format).run()
            print(geofence.json ? ParseBench.json(measurement, path: parseFile) : ParseBench.text(measurement, path: parseFile))
            return
        }
        let shapes: [Shape]
        let points: [Coordinate]
        if let regions = geofence.regions, let positions = geofence.positions {
            shapes = Array(try loadRegions(regions, strict: false).shapes)
            points = try PositionsFile.read(path: positions)
        } else {
            var workload = GeofenceWorkload(layout: geofence.box.layout, seed: geofence.seed)
            shapes = workload.regions(count: geofence.regionsCount)
            points = workload.walks(count: geofence.positionsCount)
        }
        let result = IndexBench.measure(shapes: shapes, points: points, progress: ProgressBar(enabled: Console.stderrIsTerminal))
        if geofence.json {
            Console.write(result.indexLine)
            print(result.json)
        } else {
            print(result.table)
        }
    }
}

/// The options of `bench`'s geofence mode.
struct GeofenceBenchOptions: ParsableArguments {
    /// The box a generated workload lies in.
    enum Box: String, ExpressibleByArgument, CaseIterable {
        case city, country

        /// The generator's layout of this box.
        var layout: GeofenceWorkload.Layout {
            switch self {
            case .city: .city
            case .country: .country
            }
        }
    }

    @Option(help: "Regions CSV (id,lat,lon,radius); with --positions or --feed. Default: a generated workload.")
    var regions: String?

    @Option(help: "Positions CSV (t,lat,lon or time,lat,lon).")
    var positions: String?

    @Option(help: "Regions to generate when no --regions file is given (at most 10 million).")
    var regionsCount = 10_000

    @Option(help: "Positions to generate when no --positions file is given (at most 100 million).")
    var positionsCount = 1_000_000

    /// The most `--regions-count`: 10 times the largest peer workload, 1.8 GB at its peak.
    static let maximumRegions = 10_000_000
    /// The most `--positions-count`: 1.6 GB at its peak.
    static let maximumPositions = 100_000_000

    @Option(help: "Where generated regions and positions lie: city (30 km box) or country (800 km box).")
    var box: Box = .city

    @Option(help: "Seed of the generated workload.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON object on stdout instead of a table.")
    var json = false

    func validate() throws {
        if regionsCount < 1 || positionsCount < 1 {
            throw ValidationError("--regions-count and --positions-count must be at least 1")
        }
        // Beyond these the workload is made in memory until it runs out.
        if regionsCount > Self.maximumRegions { throw ValidationError("--regions-count must be at most 10 000 000") }
        if positionsCount > Self.maximumPositions { throw ValidationError("--positions-count must be at most 100 000 000") }
    }
}
