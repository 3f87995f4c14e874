import FeedParsing
import GeoCore

/// The points of a route file for `generate`: a GPX track (or, without
/// one, its route points), or a CSV, NMEA or gpsd feed, with the times the
/// file gives (for `--keep-times`).
public enum RouteFile {
    /// One point of the route, in file order.
    public struct Point: Hashable, Sendable {
        /// Where.
        public var coordinate: Coordinate
        /// When, if the file says.
        public var time: Timestamp?
    }

    /// The points of the file at `path` (`-` for standard input); records
    /// the decoder skips are reported on stderr, located, and left out.
    /// - Throws: what reading the file throws; ``RouteFileError`` when it
    ///   holds fewer than two points.
    public static func load(path: String, format: FeedFormat?, options: FeedDecodingOptions) throws -> [Point] {
        var options = options
        options.collectRoutePoints = true
        var track: [Point] = []
        var route: [Point] = []
        let name = path == "-" ? "<stdin>" : path
        try FeedFileDecoding.decode(path: path, format: format, options: options) { batch in
            for diagnostic in batch.diagnostics { Console.warn(diagnostic.located(in: name)) }
            track += batch.fixes.map { Point(coordinate: $0.coordinate, time: $0.time) }
            route += batch.routePoints.map { Point(coordinate: $0.coordinate, time: $0.time) }
            return true
        }
        let points = track.isEmpty ? route : track
        guard points.count >= 2 else { throw RouteFileError(path: name, count: points.count) }
        return points
    }
}

/// A route file with fewer than two points.
public struct RouteFileError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// How many points it held.
    public let count: Int

    public var description: String {
        "\(path) decodes to \(count) point\(count == 1 ? "" : "s"); a route needs at least two "
            + "(a GPX track or route, or a CSV, NMEA or gpsd feed)"
    }
}
