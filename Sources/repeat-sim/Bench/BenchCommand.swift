import ArgumentParser
import FeedParsing

/// `repeat-sim bench`: throughput measurements on this machine.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure geofence and feed-decoding throughput on this machine.",
        discussion: """
            --parse FILE decodes a feed file three times (1 MiB reads, as `decode` does) and
            reports the fastest run: fixes/s, MB/s and the process's peak RSS. Use a release
            build: swift build -c release --product repeat-sim.
              repeat-sim bench --parse track_city.nmea --json
            """
    )

    @Option(name: .customLong("parse"), help: ArgumentHelp("Measure decoding of this feed file.", valueName: "FILE"))
    var parseFile: String?

    @Option(help: "The feed format for --parse (gpx, nmea, csv, gpsd), or auto.")
    var format: FeedFormatChoice = .auto

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        guard let parseFile else {
            var errors = ByteOutput.standardError
            errors.write("Error: give --parse FILE\n  See 'repeat-sim bench --help' for more information.\n")
            errors.flush()
            throw ExitCode(1)
        }
        let measurement = try ParseBench(path: parseFile, format: format.format).run()
        var output = ByteOutput.standardOutput
        output.write((json ? ParseBench.json(measurement, path: parseFile) : ParseBench.text(measurement, path: parseFile)) + "\n")
        output.flush()
    }
}
