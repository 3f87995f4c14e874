import ArgumentParser
import FeedParsing
import Pipeline

/// The live-input flags shared by `decode` and `live`: a serial GPS receiver
/// (`--device`, `--baud`) or a gpsd server (`--gpsd`).
///
/// Rules and messages live in `Pipeline.LiveInput`; this type declares the
/// flags, checks them in `validate()`, and opens the chosen source.
struct LiveInputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read NMEA from a serial GPS receiver, e.g. /dev/ttyUSB0 or /dev/ttyACM0.",
            discussion: """
                The device is opened exclusively in raw mode. If it disappears (unplugged) it is \
                reopened with growing delays (0.5 s, 1 s, 2 s … at most 30 s), reported on stderr.
                """,
            valueName: "tty"))
    var device: String?

    @Option(
        help: ArgumentHelp(
            "Line speed of --device: \(SerialBaudRate.supportedList). (default: 4800)",
            valueName: "rate"))
    var baud: Int?

    @Option(
        help: ArgumentHelp(
            "Read the reports of a gpsd server (default port 2947), e.g. localhost or [::1]:2947.",
            discussion: "A gpsd that is not running yet, refuses or restarts is retried with growing delays.",
            valueName: "host[:port]"))
    var gpsd: String?

    @Option(
        name: .customLong("silence-warning"),
        help: ArgumentHelp(
            "Warn on stderr after this long without data from the live input (0: never). (default: 10s)", valueName: "duration"),
        transform: DurationArgument.parse)
    var silenceWarning = DurationArgument(10, .seconds)

    mutating func validate() throws {
        do {
            _ = try LiveInput(device: device, baud: baud, gpsd: gpsd)
        } catch {
            throw ValidationError(error.description)
        }
        if let problem = silenceWarning.fixedLengthProblem(flag: "--silence-warning") { throw ValidationError(problem) }
    }

    /// The chosen live input, or `nil` when the command reads files or stdin.
    var input: LiveInput? {
        // validate() has accepted these values, so the conversion cannot fail here.
        try? LiveInput(device: device, baud: baud, gpsd: gpsd)
    }

    /// Source settings from the flags: backoff defaults, the silence warning.
    var sourceOptions: LiveSourceOptions {
        let seconds = silenceWarning.seconds ?? 0
        return LiveSourceOptions(silenceThreshold: seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : nil)
    }

    /// The chosen live input as a run's input, opened on its own reader
    /// thread, or `nil` when none was chosen; gpsd speaks its JSON, a
    /// serial receiver NMEA unless --format says otherwise (`format`: its
    /// value, `nil` for auto).
    func feed(format asked: FeedFormat?) -> LiveFeed? {
        guard let input else { return nil }
        var options = sourceOptions
        options.watchesForSentences = asked == nil || asked == .nmea
        // A receiver opened mid-stream, or at the wrong speed, sends bytes
        // that could pass for another format; it speaks NMEA.
        let format: FeedFormat =
            switch input {
            case .gpsd: .gpsd
            case .serial: .nmea
            }
        var feed = LiveFeed(name: input.description, events: input.events(options: options), format: format)
        if case .serial = input { feed.checksWeekRollover = true }
        return feed
    }
}
