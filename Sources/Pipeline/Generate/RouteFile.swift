import FeedParsing
import GeoCore

/// The points of a route file for `generate`: a GPX track (or, without
/// one, its route points), a KML path (a line drawn in Google My Maps or
/// Earth, or a recorded `gx:Track`), a GeoJSON line (geojson.io, QGIS), or
/// any other feed Repeat decodes (CSV, NMEA, gpsd, Google's location
/// histories…), with the times the file gives (for `--keep-times`).
public enum RouteFile {
    /// One point of the route, in file order.
    public struct Point: Hashable, Sendable {
        /// Where.
        public var coordinate: Coordinate
        /// When, if the file says.
        public var time: Timestamp?
    }

    /// The points of the file at `path` (`-` for standard input); records
    /// the decoder skips are reported on stderr, located, and left out. A
    /// KML file (told by its root element, unless `format` says) gives the
    /// points of its `gx:Track`s (recordings, with times), else of its
    /// `LineString`s (lines drawn on a map), in document order; a GeoJSON
    /// file those of its `LineString`s and `MultiLineString`s.
    /// - Throws: what reading the file throws; ``RouteFileError`` when it
    ///   holds fewer than two points.
    public static func load(path: String, format: FeedFormat?, options: FeedDecodingOptions) throws -> [Point] {
        var options = options
        options.collectRoutePoints = true
        var track: [Point] = []
        var route: [Point] = []
        let name = path == "-" ? "<stdin>" : path
        let decoder = makeFeedDecoder(format: format, options: options)
        var batch = FeedBatch()
        func take() {
            for diagnostic in batch.diagnostics { Console.warn(diagnostic.located(in: name)) }
            track += batch.fixes.map { Point(coordinate: $0.coordinate, time: $0.time) }
            route += batch.routePoints.map { Point(coordinate: $0.coordinate, time: $0.time) }
            batch.removeAll()
        }
        // A document read whole: KML or GeoJSON, told by the first chunk.
        var document: (kind: DocumentKind, bytes: [UInt8])?
        var isFirstChunk = true
        try FileByteReader(path: path).forEachChunk { chunk in
            if isFirstChunk, format == nil, let kind = DocumentKind(firstChunk: Array(chunk)) { document = (kind, []) }
            isFirstChunk = false
            if document != nil { return document!.bytes.append(contentsOf: chunk) }
            decoder.decode(chunk, into: &batch)
            take()
        }
        let points: [Point]
        if let document {
            points =
                switch document.kind {
                case .kml: kmlPaths(of: document.bytes, name: name)
                case .geoJSON: geoJSONLines(of: document.bytes, name: name)
                }
        } else {
            decoder.finish(into: &batch)
            take()
            points = track.isEmpty ? route : track
        }
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
            + "(a GPX track or route, a KML LineString or gx:Track, a GeoJSON LineString, or a CSV, NMEA, gpsd or Google location history feed)"
    }
}
