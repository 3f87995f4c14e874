import ArgumentParser
import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Pipeline
import Simulation

/// `repeat-sim generate`: a seeded GPS feed with realistic error, and the
/// ground truth beside it.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Simulate a noisy GPS feed along a route, and write the ground truth beside it.",
        discussion: """
            The true path is a ROUTE file (a GPX track or route, a KML gx:Track or a
            LineString drawn in Google My Maps or Earth, a GeoJSON LineString from
            geojson.io or QGIS, a TCX or FIT activity or course, or a CSV, NMEA,
            gpsd or Google location history feed) or --via points, followed along
            great-circle legs at the --profile's speed (--stop at each interior
            vertex), or a recording on its own clock (--keep-times). Fixes are
            sampled every --interval, displaced by the --environment's error
            (Gauss–Markov bias + white jitter + over-confident outliers), then
            dropped, cut by tunnels (--gap), delivered invalid at a --cold-start,
            reordered and duplicated as asked. --truth writes where the device
            really was; --manifest the seed, every parameter, the counts and the
            SHA-256 of each output. Same seed and arguments, same bytes.

            Outputs: --out FILE (the format from its extension, or --format),
            - for standard output (the default), or a FOLDER/ for one file per
            device (needed for several devices in NMEA, GPX, KML or FIT). A
            FIT file's header, which holds the data's length, is written last,
            so FIT goes to a file or a folder, or to a standard output that is
            a file (> walk.fit). --pty PATH instead links a pseudo-terminal at
            PATH and writes it at the feed's pace (--pace realtime|N) within
            --baud's bytes, for `repeat-sim live --device PATH`, gpsd or any
            app; it waits for a reader (--no-wait does not), stops on Ctrl-C,
            and removes its link however it ends.

            Examples:
              repeat-sim generate --via "52.5200,13.4050;52.5163,13.3777" \\
                --environment urban --interval 5s --out walk.nmea \\
                --truth walk-truth.csv --manifest walk.json
              repeat-sim generate Tracks/gpx/gpxpy-visnjan-car.gpx \\
                --keep-times --environment suburban --out car.gpx
              repeat-sim generate --via "52.52,13.40;52.53,13.41" \\
                --profile car --pty /tmp/gps0
              repeat-sim generate --via "52.52,13.40;52.53,13.41" \\
                | repeat-sim replay - --regions shops.csv
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The route: a GPX track or route, a KML gx:Track or LineString, a GeoJSON LineString, a TCX or FIT activity or course, or a CSV, NMEA, gpsd or Google location history feed.",
            valueName: "ROUTE"))
    var route: String?

    // Taken whatever it starts with: south of the equator the points begin with a "-".
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The route as points instead of a file: \"lat,lon;lat,lon;…\".", valueName: "points"))
    var via: String?

    @Flag(help: "Follow the ROUTE's own times instead of a speed: a real recording becomes the truth.")
    var keepTimes = false

    @Option(
        help: ArgumentHelp(
            "A routine instead of a route: home, places and visit rules (JSON), simulated for --days.",
            discussion: """
                {"timeZone": "Europe/Berlin", "home": "Home", "profile": "car", "places": [{"name": "Home", \
                "lat": 52.50, "lon": 13.42}, …], "visits": [{"place": "Work", "weekdays": ["mon", "fri"], \
                "from": "09:00", "to": "17:00"}, {"place": "Pharmacy", "every": "10d-20d", "stay": "10m"}]}. \
                The days start at local midnight of --start's date (default 2025-01-06).
                """,
            valueName: "file"))
    var itinerary: String?

    @Option(help: ArgumentHelp("Days of the --itinerary to simulate.", valueName: "n"))
    var days = 7

    @Option(
        help: ArgumentHelp(
            "Boundary stress instead of a route: for each circle of this regions file, passes inside by 2σ, "
                + "on the line and outside by 2σ, and a stop parked on the line.",
            valueName: "regions"))
    var probe: String?

    @Option(
        help: ArgumentHelp(
            "When the first fix is taken (RFC 3339). (default: the route's first time, else 2025-01-06T08:00:00Z)",
            valueName: "time"))
    var start: String?

    @Option(
        help: ArgumentHelp(
            "Simulate N devices (a million at most) on the route, named dev1…devN, each with its own random streams.",
            valueName: "n"))
    var devices = 1

    @Option(help: ArgumentHelp("Seed of every random stream.", valueName: "n"))
    var seed: UInt64 = 1

    @OptionGroup(title: "Motion") var motion: MotionOptions

    @OptionGroup(title: "Error model") var error: ErrorModelOptions

    @OptionGroup(title: "Sampling and delivery") var delivery: DeliveryOptions

    @OptionGroup(title: "Output") var output: GenerateOutputOptions

    func validate() throws {
        var problems: [String] = []
        switch [route, via, itinerary, probe].compactMap({ $0 }).count {
        case 0: problems.append("give a ROUTE file, --via \"lat,lon;lat,lon\", --itinerary FILE or --probe REGIONS")
        case 1: break
        default: problems.append("give one of a ROUTE file, --via, --itinerary or --probe")
        }
        if days < 1 { problems.append("--days must be at least 1") }
        if keepTimes, via != nil { problems.append("--keep-times follows a ROUTE file's own times; --via points have none") }
        if keepTimes, itinerary != nil || probe != nil {
            problems.append("--keep-times follows a ROUTE file's own times; an --itinerary or --probe makes its own")
        }
        if devices < 1 { problems.append("--devices must be at least 1") }
        // 100 000 devices kept 108 MB; 2^63 − 1 of them ran on, a file each, without end.
        if devices > 1_000_000 { problems.append("--devices must be at most 1 000 000") }
        if let start, ArgumentParsers.feedTime(start) == nil {
            problems.append(
                ArgumentParsers.refusedFeedTime(start, flag: "--start", otherwise: "--start '\(start)' is not an RFC 3339 time"))
        }
        problems += motion.problems() + output.problems()
        if let first = problems.first { throw ValidationError(first) }
        _ = try error.model()
        _ = try delivery.settings(start: nil)
        _ = try output.outputs(devices: devices)
    }

    func run() async throws {
        try checkOutputsAreNotInputs(
            [("--out", output.out), ("--truth", output.truth), ("--manifest", output.manifest)],
            inputs: [route, itinerary, probe])
        let simulation = try simulation(seed: seed)
        let path = simulation.devices[0].path
        let errorModel = simulation.errorModel
        if probe != nil, errorModel.deviation == 0 {
            Console.warn(
                "--probe without noise (σ 0): its passes inside and outside each circle by 2σ run on the line too; "
                    + "give an --environment (urban: σ 8 m) or --noise M")
        }
        let outputs = try output.outputs(devices: devices)
        let parameters = manifestParameters(path: path, errorModel: errorModel, outputs: outputs)
        let summary: GenerateSummary
        if let pty = output.pty {
            let (pace, baud, waitsForReader) = (output.pace.factor, output.baud, !output.noWait)
            summary = try await StopSignal.cancelling {
                try await GenerateRun.writeToTerminal(
                    simulation, outputs: outputs, path: pty, pace: pace, baud: baud, waitsForReader: waitsForReader,
                    parameters: parameters)
            }
        } else {
            summary = try GenerateRun.write(
                simulation, to: outputs, parameters: parameters,
                progress: ProgressBar(enabled: Console.stderrIsTerminal && output.out != nil && output.out != "-"))
        }
        Console.write(summary.line(devices: devices))
        warnOfSkippedVisits()
    }

    /// Names the weekday visits of the `--itinerary` that the person
    /// could not reach before they end, which the truth leaves out. The
    /// itinerary is read again, so only from a file: standard input or a
    /// pipe was read up by the simulation.
    private func warnOfSkippedVisits() {
        guard let itinerary, isRegularFile(itinerary), let (routine, day) = try? routineAndDay(),
            let skipped = try? routine.skippedVisits(days: days, start: day, seed: seed), !skipped.isEmpty
        else { return }
        let named = skipped.prefix(3).map {
            "\($0.place) at \(LocalText.dateTime(Date(timeIntervalSince1970: $0.arrival.secondsSince1970), in: routine.timeZone))"
        }
        let more = skipped.count > 3 ? " and \(skipped.count - 3) more" : ""
        Console.warn(
            "\(itinerary): \(skipped.count) weekday visit\(skipped.count == 1 ? " was" : "s were") skipped, "
                + "out of reach before their end: \(named.joined(separator: ", "))\(more) "
                + "(are the places that far apart, or the profile that slow?)")
    }

    /// The `--itinerary` and the day its simulation starts; `nil` without one.
    private func routineAndDay() throws -> (Itinerary, Itinerary.CivilDate)? {
        guard let itinerary else { return nil }
        let routine: Itinerary
        do { routine = try Itinerary(json: try readInput(itinerary)) } catch let error as ItineraryError {
            throw GenerateFailure("\(itinerary): \(error)")
        }
        let day =
            start.flatMap(ArgumentParsers.feedTime).map { Itinerary.CivilDate(of: $0, in: routine.timeZone) }
            ?? Itinerary.CivilDate(year: 2025, month: 1, day: 6)
        return (routine, day)
    }

    /// The simulation these flags describe, every random stream seeded
    /// from `seed` (`evaluate --scenario` runs seeds 1…N).
    func simulation(seed: UInt64) throws -> FeedSimulation {
        let errorModel = try error.model()
        let path = try truePath(errorModel: errorModel, seed: seed)
        let settings = try delivery.settings(start: start.flatMap(ArgumentParsers.feedTime))
        do {
            let named =
                devices == 1 ? [SimulatedDevice(name: nil, path: path)] : SimulatedDevice.numbered(devices, following: path)
            return try FeedSimulation(devices: named, errorModel: errorModel, delivery: settings, seed: seed)
        } catch { throw GenerateFailure(error.description) }
    }

    /// Every setting in force, defaults included, for the manifest.
    private func manifestParameters(path: TimedPath, errorModel: ErrorModel, outputs: GenerateOutputs) -> JSONLine {
        var line = JSONLine()
        line.add("arguments", CommandLine.arguments.dropFirst(2).joined(separator: " "))
        line.add("route", route)
        line.add("via", via)
        line.add("itinerary", itinerary)
        line.add("days", itinerary == nil ? nil : Double(days))
        line.add("probe", probe)
        line.add("keep_times", keepTimes ? "yes" : "no")
        line.add("speed_m_s", keepTimes ? nil : motion.metresPerSecond)
        line.add("stop_s", motion.stop?.seconds ?? 0)
        line.add("start", RFC3339.format(path.start))
        line.add("end", RFC3339.format(path.end))
        line.add("length_m", (path.length * 100).rounded() / 100)
        line.add("devices", devices)
        line.add("environment", error.environment.rawValue)
        line.add("noise_m", errorModel.noise)
        line.add("bias_m", errorModel.bias)
        line.add("bias_time_s", errorModel.biasTime)
        line.add("outlier_probability", errorModel.outliers.probability)
        line.add("outlier_distance_m", errorModel.outliers.distance)
        line.add("accuracy_m", errorModel.accuracy)
        line.add("interval_s", delivery.interval.seconds)
        line.add("dropout", delivery.dropout)
        line.add("gaps", delivery.gap.joined(separator: ";"))
        line.add("cold_start_s", delivery.coldStart?.seconds ?? 0)
        line.add("reorder_s", delivery.reorder?.seconds ?? 0)
        line.add("duplicates", delivery.duplicates)
        line.add("format", outputs.format.rawValue)
        line.add("talker", outputs.format == .nmea ? outputs.talker.rawValue : nil)
        line.add("truth_interval_s", outputs.truth == nil ? nil : outputs.truthInterval)
        return line
    }

    /// The path the device truly follows.
    private func truePath(errorModel: ErrorModel, seed: UInt64) throws -> TimedPath {
        let begin = start.flatMap(ArgumentParsers.feedTime)
        do {
            if let (routine, day) = try routineAndDay() {
                return try routine.simulate(days: days, start: day, seed: seed)
            }
            if let probe {
                let regions = try loadRegions(probe, strict: false).compactMap { region -> Probe.Region? in
                    guard case .circle(let circle) = region.shape else { return nil }
                    return Probe.Region(id: region.id, centre: circle.centre, radius: circle.radius)
                }
                return try Probe(
                    regions: regions, sigma: errorModel.deviation, speed: motion.metresPerSecond, from: begin ?? Self.defaultStart
                ).path
            }
            if let via {
                return try TimedPath.following(
                    try Self.points(via), speed: motion.metresPerSecond, stop: motion.stop?.seconds ?? 0,
                    from: begin ?? Self.defaultStart)
            }
            let points = try RouteFile.load(path: route!, format: nil, options: FeedDecodingOptions())
            if keepTimes {
                let vertices = points.compactMap { point in
                    point.time.map { TimedPath.Vertex(time: $0, coordinate: point.coordinate) }
                }
                guard vertices.count == points.count else {
                    throw GenerateFailure(
                        "--keep-times needs a time on every point of \(route!); \(points.count - vertices.count) have none")
                }
                return try TimedPath(vertices: vertices)
            }
            return try TimedPath.following(
                points.map(\.coordinate), speed: motion.metresPerSecond, stop: motion.stop?.seconds ?? 0,
                from: begin ?? points.first?.time ?? Self.defaultStart)
        } catch let error as SimulationError {
            throw GenerateFailure("\(route ?? itinerary ?? probe ?? "--via"): \(error)")
        }
    }

    /// When a route without times starts unless --start says.
    static let defaultStart = RFC3339.parse("2025-01-06T08:00:00Z")!

    /// `lat,lon;lat,lon;…`.
    static func points(_ text: String) throws -> [Coordinate] {
        try text.split(separator: ";").map { part in
            let place = try ArgumentParsers.place(String(part))
            return Coordinate(latitude: place.latitude, longitude: place.longitude)
        }
    }
}

/// Why a generation could not run, once its flags were accepted: a plain
/// error (exit 1) without the usage text.
struct GenerateFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
