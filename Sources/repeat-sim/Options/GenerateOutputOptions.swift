import ArgumentParser
import FeedParsing
import Foundation
import Pipeline

extension NMEAEncoder.Talker: ExpressibleByArgument {
    /// `GP` or `GN`, in any case (`gn` as well).
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased())
    }
}

/// Where and how `generate` writes.
struct GenerateOutputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The feed format: nmea, gpx, csv, gpsd, kml, fit (into a file), or auto (from --out's extension, else nmea).",
            valueName: "format"))
    var format: FeedFormatChoice = .auto

    @Option(help: ArgumentHelp("The NMEA talker: GP or GN.", valueName: "talker"))
    var talker = NMEAEncoder.Talker.gp

    @Option(
        help: ArgumentHelp(
            "FILE, - for standard output, or a FOLDER (ending in /, or existing) for a file per device. (default: -)",
            valueName: "path"))
    var out: String?

    @Option(help: ArgumentHelp("Write into a pseudo-terminal linked at PATH instead, at the feed's pace.", valueName: "path"))
    var pty: String?

    @Option(
        help: ArgumentHelp("With --pty: realtime, or N times real time. (default: realtime)", valueName: "pace"),
        transform: Pace.parse)
    var pace = Pace.times(1)

    @Option(help: ArgumentHelp("With --pty: the line's speed; a pace whose bytes do not fit is refused.", valueName: "rate"))
    var baud = 4800

    @Flag(help: "With --pty: start at once instead of waiting for a reader.")
    var noWait = false

    @Option(
        help: ArgumentHelp(
            "Write the error-free positions here: a FILE (CSV time,lat,lon,device unless the extension says), or a FOLDER (ending in /, or existing) for a file per device in the feed's format.",
            valueName: "path"))
    var truth: String?

    @Option(
        help: ArgumentHelp(
            "Seconds between truth points (every vertex and stop boundary is added). (default: 1s)",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var truthInterval = DurationArgument(1, .seconds)

    @Option(
        help: ArgumentHelp(
            "Write the run's manifest here (JSON: seed, parameters, counts, SHA-256 of each output).",
            valueName: "file"))
    var manifest: String?

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if pty != nil, out != nil { found.append("give --out or --pty, not both") }
        if pty == nil, pace != .times(1) { found.append("--pace paces a --pty; files are written at once") }
        if case .max = pace { found.append("--pace takes realtime or a positive number") }
        if baud < 300 { found.append("--baud must be at least 300") }
        if let problem = truthInterval.fixedLengthProblem(flag: "--truth-interval") { found.append(problem) }
        return found
    }

    /// The outputs for `devices` devices.
    /// - Throws: a `ValidationError` for several devices into one NMEA, GPX,
    ///   KML or FIT file, feed or truth, for KML or FIT into a
    ///   pseudo-terminal, FIT to a standard output that is no file to write
    ///   over, a truth folder that is the feed's, and a format Repeat only
    ///   reads (TCX).
    func outputs(devices: Int) throws -> GenerateOutputs {
        let destination: GenerateOutputs.Destination
        switch out {
        case nil, "-": destination = .standardOutput
        case let path? where Self.namesFolder(path): destination = .folder(path)
        case let path?: destination = .file(path)
        }
        let truthDestination = truth.map { Self.namesFolder($0) ? GenerateOutputs.Truth.folder($0) : .file($0) }
        var fileFormat: FeedFormat? = nil
        if case .file(let path) = destination { fileFormat = GenerateOutputs.format(ofPath: path) }
        let chosen = format.format ?? fileFormat ?? .nmea
        for written in [chosen] + (truth.flatMap(GenerateOutputs.format(ofPath:)).map { [$0] } ?? []) {
            if let reason = written.reasonNotWritten {
                throw ValidationError(
                    "\(written.name) is read, not written (\(reason)): write nmea, gpx, csv, gpsd, kml or fit")
            }
        }
        if chosen == .kml, pty != nil {
            throw ValidationError(
                "KML is written a track segment (\(KMLEncoder.segmentLength) fixes) at a time, not at a feed's pace: --pty takes nmea, gpx, csv or gpsd"
            )
        }
        if chosen == .fit, pty != nil {
            throw ValidationError(
                "a FIT file's header, which holds the data's length, is written last, into the file: --pty takes nmea, gpx, csv or gpsd"
            )
        }
        if chosen == .fit, destination == .standardOutput, let problem = HashedFileWriter.standardOutputRewriteProblem() {
            throw ValidationError(
                "a FIT file's header, which holds the data's length, is written last, into the file, and \(problem): "
                    + "give --out FILE.fit or --out FOLDER/, or send standard output to a file (> walk.fit)")
        }
        if devices > 1, case .file(let path) = truthDestination, let format = GenerateOutputs.format(ofPath: path),
            format != .csv, format != .gpsd
        {
            throw ValidationError(
                "\(devices) devices' truth in one \(format.rawValue.uppercased()) file would not say whose each point is: "
                    + "give --truth FOLDER/ (a file per device) or a .csv or .gpsd file (they carry a device column)")
        }
        if case .folder(let feeds) = destination, case .folder(let truths) = truthDestination,
            Self.sameFolder(feeds, truths)
        {
            throw ValidationError(
                "--truth \(truths) is the feed's folder, where the truth's files would take the feeds' names: give it a folder of its own"
            )
        }
        if devices > 1, chosen == .nmea || chosen == .gpx || chosen == .kml || chosen == .fit, pty == nil {
            if case .folder = destination {
            } else {
                throw ValidationError(
                    "\(devices) devices in \(chosen.rawValue) need --out FOLDER/ (one file per device); CSV and gpsd carry a device column"
                )
            }
        }
        return GenerateOutputs(
            format: chosen, talker: talker, destination: destination, truth: truthDestination,
            truthInterval: truthInterval.seconds ?? 1, manifest: manifest)
    }

    /// Whether `path` names a folder: it ends in `/`, or is one.
    private static func namesFolder(_ path: String) -> Bool {
        path.hasSuffix("/") || isFolder(path)
    }

    /// Whether two folder paths name the same folder, existing or not.
    private static func sameFolder(_ first: String, _ second: String) -> Bool {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(first) == resolved(second)
    }
}

extension Pace {
    /// Feed seconds per wall second (1 for max, which --pty refuses).
    var factor: Double {
        if case .times(let factor) = self { return factor }
        return 1
    }
}
