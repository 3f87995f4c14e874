import CLibXML2
import GeoCore

/// Decodes the tracks of a KML document (Google Earth, GPSBabel, loggers
/// that write KML) through libxml2's SAX2 push parser (``XMLPushParser``).
///
/// Each track (`gx:Track` of KML 2.2's Google extension, `Track` of KML
/// 2.3, alone or in a `gx:MultiTrack`) is the feed: its `when`s and
/// `gx:coord`s (`lon lat [alt]`) paired by rank, with the heading of its
/// `gx:angles` as course and the `speed` (m/s), `course`/`bearing`,
/// `accuracy` (m) and `hdop` arrays of its `ExtendedData`
/// (`gx:SimpleArrayData`). KML lists a track's times before its positions
/// and its data after them, so a track is one record: its fixes come when
/// it ends, and memory grows with the longest track, not with the file.
///
/// A placemark's `Point` is a waypoint, with or without a `TimeStamp`, as
/// GPSBabel reads it: collected when the options ask, counted otherwise.
/// A `LineString` is a path without times and a `Polygon` an area: both
/// are counted. A document with no track at all says so once at the end,
/// with what it had instead. Elements are matched by local name, so any
/// prefix works; XML and encoding errors are handled as ``GPXDecoder``
/// handles them.
public final class KMLDecoder: FeedDecoder {
    private let parser: XMLPushParser<KMLParseState>

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        parser = XMLPushParser(KMLParseState(collectsWaypoints: options.collectWaypoints))
    }

    /// Always ``FeedFormat/kml``.
    public var format: FeedFormat? { .kml }

    /// Placemark points (when not collected), paths, areas and suppressed XML errors.
    public var statistics: FeedStatistics { parser.state.pointee.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        parser.decode(chunk, into: &batch)
    }

    /// Ends the input; a document without a track says what it had instead.
    public func finish(into batch: inout FeedBatch) {
        parser.finish(into: &batch)
        let counts = parser.state.pointee.counts
        guard counts.tracks == 0, counts.pointPlacemarks + counts.paths + counts.areas > 0 else { return }
        batch.diagnostics.append(
            FeedDiagnostic(.missingField, at: FeedLocation(line: 1, byteOffset: 0), Self.noTrack(counts)))
    }

    /// What a document without a track had, and where it goes instead.
    static func noTrack(_ counts: KMLCounts) -> String {
        var had: [String] = []
        var hints: [String] = []
        if counts.pointPlacemarks > 0 {
            let timed = counts.timedPointPlacemarks
            had.append(
                "\(counts.pointPlacemarks) Point placemark\(counts.pointPlacemarks == 1 ? "" : "s")"
                    + (timed > 0 ? " (\(timed) with a TimeStamp)" : ""))
            hints.append("places go to --regions or place import")
            if timed > 0 {
                hints.append(
                    "to replay timed points as a track, convert them: "
                        + "gpsbabel -i kml -f IN.kml -x nuketypes,tracks -x transform,trk=wpt,del -o gpx -F OUT.gpx")
            }
        }
        if counts.areas > 0 {
            had.append("\(counts.areas) Polygon area\(counts.areas == 1 ? "" : "s")")
            if counts.pointPlacemarks == 0 { hints.append("areas go to --regions") }
        }
        if counts.paths > 0 {
            had.append("\(counts.paths) LineString path\(counts.paths == 1 ? "" : "s") without times")
            hints.append("generate ROUTE drives along a path")
        }
        let list = had.count > 1 ? had.dropLast().joined(separator: ", ") + " and " + had.last! : had.joined()
        return "no track (<gx:Track>) in this KML, only \(list): "
            + hints.joined(separator: "; ")
    }
}
