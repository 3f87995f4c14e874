import ArgumentParser
import FeedParsing
import GeoCore
import Pipeline

/// `repeat-sim decode FEED...`: print the fixes a feed decodes to.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print the fixes decoded from GPX, NMEA 0183, CSV or gpsd JSON feeds.",
        discussion: """
            Each FEED is a file, or - for standard input (a pipe streams: fixes are printed
            as the bytes arrive). The format is detected from the content unless --format
            says it.

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
            read that held the malformed record is printed.

            Live input instead of FEEDs: --device /dev/ttyUSB0 [--baud 9600] reads a serial
            receiver, --gpsd HOST[:PORT] a gpsd server; both run until Ctrl-C, reconnect by
            themselves and report connection changes on stderr.

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

    @OptionGroup var feedOptions: FeedOptions

    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @Flag(help: "Exit with status 2 at the first malformed record.")
    var strict = false

    @Flag(help: "List the GPX waypoints (wpt) instead of the track points.")
    var waypoints = false

    @OptionGroup var live: LiveInputOptions

    func validate() throws {
        if live.input != nil {
            if !feeds.isEmpty { throw ValidationError("give FEED files or a live input (--device, --gpsd), not both") }
            if waypoints { throw ValidationError("--waypoints reads GPX files, not a live input") }
            return
        }
        if feeds.isEmpty { throw ValidationError("give at least one FEED (a file, or - for standard input)") }
        if feeds.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        if let problem = feedOptions.problems().first { throw ValidationError(problem) }
    }

    func run() async throws {
        let options = feedOptions.decodingOptions(collectWaypoints: waypoints)
        var output = ByteOutput.standardOutput
        var errors = ByteOutput.standardError
        if !json { output.write(waypoints ? FixTable.waypointHeader() : FixTable.header) }
        if let source = live.openSource() {
            return try await decodeLive(source.input, source.events, options: options, output: &output, errors: &errors)
        }
        var failed = false
        for feed in feeds {
            var summary = DecodeSummary(feed: feed == "-" ? "<stdin>" : feed, itemName: waypoints ? "waypoint" : "fix")
            var strictFailure = false
            do {
                let decoder = try FeedFileDecoding.decode(path: feed, format: feedOptions.format.format, options: options) { batch in
                    strictFailure = !emit(batch, summary: &summary, output: &output, errors: &errors)
                    return !strictFailure
                }
                summary.format = decoder.format
                summary.ignored = decoder.statistics.ignored
            } catch let error as FileReadError {
                errors.write("Error: \(error)\n")
                errors.flush()
                failed = true
                continue
            }
            errors.write(summary.line + "\n")
            errors.flush()
            if strictFailure {
                output.flush()
                throw ExitCode(2)
            }
        }
        output.flush()
        if failed { throw ExitCode(1) }
    }

    /// Decodes a live input until it ends or the process is interrupted,
    /// printing fixes as they arrive and connection changes on stderr.
    private func decodeLive(
        _ input: LiveInput, _ events: AsyncThrowingStream<LiveSourceEvent, any Error>, options: FeedDecodingOptions,
        output: inout ByteOutput, errors: inout ByteOutput
    ) async throws {
        // gpsd speaks its JSON; a serial receiver NMEA unless --format says otherwise.
        var defaultFormat: FeedFormat?
        if case .gpsd = input { defaultFormat = .gpsd }
        let decoder = makeFeedDecoder(format: feedOptions.format.format ?? defaultFormat, options: options)
        var summary = DecodeSummary(feed: input.description, itemName: "fix")
        var batch = FeedBatch()
        for try await event in events {
            switch event {
            case .bytes(let chunk):
                chunk.withUnsafeBytes { decoder.decode($0, into: &batch) }
            case .status(let status):
                errors.write("repeat-sim: \(status)\n")
                errors.flush()
            }
            if !emit(batch, summary: &summary, output: &output, errors: &errors) { throw ExitCode(2) }
            batch.removeAll()
        }
        decoder.finish(into: &batch)
        if !emit(batch, summary: &summary, output: &output, errors: &errors) { throw ExitCode(2) }
        summary.format = decoder.format
        summary.ignored = decoder.statistics.ignored
        errors.write(summary.line + "\n")
        errors.flush()
    }

    /// Prints a batch's items on stdout and its diagnostics on stderr,
    /// counting both; `false` under --strict at a malformed record. Under
    /// --strict nothing from a batch that holds a malformed record is printed.
    private func emit(
        _ batch: FeedBatch, summary: inout DecodeSummary, output: inout ByteOutput, errors: inout ByteOutput
    ) -> Bool {
        if !(strict && batch.diagnostics.contains(where: \.isInputError)) {
            writeBatch(batch, summary: &summary, output: &output)
            output.flush()
        }
        defer { errors.flush() }
        for diagnostic in batch.diagnostics {
            errors.write(diagnostic.located(in: summary.feed) + "\n")
            summary.count(diagnostic)
            if strict, diagnostic.isInputError { return false }
        }
        return true
    }

    private func writeBatch(_ batch: FeedBatch, summary: inout DecodeSummary, output: inout ByteOutput) {
        if waypoints {
            summary.items += batch.waypoints.count
            for waypoint in batch.waypoints {
                if json { FixJSONEncoder.append(waypoint, to: &output.bytes) } else { output.write(FixTable.row(waypoint)) }
            }
            return
        }
        summary.items += batch.fixes.count
        for fix in batch.fixes {
            if json {
                FixJSONEncoder.append(fix, to: &output.bytes)
                output.flushIfFull()
            } else {
                output.write(FixTable.row(fix))
            }
        }
    }
}
