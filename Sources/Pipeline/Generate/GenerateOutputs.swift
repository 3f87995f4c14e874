import FeedParsing

/// Where `generate` writes: the feed (a file, standard output, one file per
/// device in a folder, or a pseudo-terminal), the truth and the manifest.
public struct GenerateOutputs: Sendable {
    /// Where the feed goes, when not into a pseudo-terminal
    /// (``GenerateRun/writeToTerminal(_:outputs:path:pace:baud:waitsForReader:parameters:)``).
    public enum Destination: Hashable, Sendable {
        /// Standard output.
        case standardOutput
        /// One file.
        case file(String)
        /// One file per device in a folder: `FOLDER/DEVICE.EXT`.
        case folder(String)
    }

    /// Where the truth goes.
    public enum Truth: Hashable, Sendable {
        /// One file; its format follows its extension (CSV
        /// `time,lat,lon,device` by default).
        case file(String)
        /// One file per device in a folder, `FOLDER/DEVICE.EXT`, in the
        /// feed's format.
        case folder(String)
    }

    /// The feed's format.
    public var format: FeedFormat
    /// NMEA's talker.
    public var talker: NMEAEncoder.Talker
    /// Where the feed goes.
    public var destination: Destination
    /// Where the truth goes, if anywhere.
    public var truth: Truth?
    /// Seconds between truth points.
    public var truthInterval: Double
    /// The manifest file, if any.
    public var manifest: String?

    /// Outputs as given.
    public init(
        format: FeedFormat, talker: NMEAEncoder.Talker, destination: Destination, truth: Truth?, truthInterval: Double,
        manifest: String?
    ) {
        self.format = format
        self.talker = talker
        self.destination = destination
        self.truth = truth
        self.truthInterval = truthInterval
        self.manifest = manifest
    }

    /// The feed format a file name implies: `.nmea`/`.log`/`.txt` NMEA,
    /// `.gpx`, `.csv`, `.gpsd`/`.jsonl` gpsd JSON, `.kml`, `.tcx` and `.fit`
    /// (which the options refuse: they are read only); `nil` otherwise.
    public static func format(ofPath path: String) -> FeedFormat? {
        let lowered = path.lowercased()
        guard let dot = lowered.lastIndex(of: "."), !lowered[dot...].contains("/") else { return nil }
        switch lowered[lowered.index(after: dot)...] {
        case "nmea", "log", "txt": return .nmea
        case "gpx": return .gpx
        case "csv": return .csv
        case "gpsd", "jsonl", "json": return .gpsd
        case "kml": return .kml
        case "tcx": return .tcx
        case "fit": return .fit
        default: return nil
        }
    }

    /// The file extension written for `format`.
    public static func fileExtension(_ format: FeedFormat) -> String { format.rawValue }

    /// The encoder of the feed.
    func feedEncoder() -> any FeedEncoder {
        format == .nmea ? NMEAEncoder(talker: talker) : makeFeedEncoder(format: format)
    }

    /// The encoder of the truth file at `path`: its extension's format, CSV
    /// `time,lat,lon,device` for `.csv` or any other.
    static func truthEncoder(_ path: String) -> any FeedEncoder {
        guard let format = format(ofPath: path), format != .csv else {
            return CSVEncoder(columns: [.time, .lat, .lon, .device])
        }
        return makeFeedEncoder(format: format)
    }
}
