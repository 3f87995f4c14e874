import ArgumentParser
import FeedParsing

/// The `--format` option: a feed format or `auto` (detect by content).
enum FeedFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case gpx, nmea, csv, gpsd, kml, tcx, fit, takeout, timeline, auto

    /// The decoder format, `nil` for detection.
    var format: FeedFormat? { FeedFormat(rawValue: rawValue) }
}
