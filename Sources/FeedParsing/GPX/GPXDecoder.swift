import CLibXML2
import GeoCore

/// Decodes GPX 1.0 and 1.1 through libxml2's SAX2 push parser
/// (``XMLPushParser``): chunks in, fixes out, constant memory.
///
/// Track points (`trkpt`) are the feed, with `ele`, `time`, `hdop` and
/// GPX 1.0's `speed`/`course`. Elements are matched by local name, so any
/// namespace prefix (or none) works. A point's `extensions` are skipped
/// except for `speed` and `course` at any depth inside them (Garmin's
/// TrackPointExtension v2, which ``GPXEncoder`` writes); waypoints are collected when the options ask for them;
/// route points are counted, not decoded. A point without a time is still
/// a fix (with `time == nil`); a point without a readable `lat`/`lon` is a
/// diagnostic. XML errors are diagnostics with libxml2's message and line;
/// the parser runs in recovery mode so one error does not lose the rest.
/// A byte that is not valid in the document's encoding is one diagnostic
/// and reads as U+FFFD (``XMLInputText``): the points around it are kept.
public final class GPXDecoder: FeedDecoder {
    private let parser: XMLPushParser<GPXParseState>

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        parser = XMLPushParser(
            GPXParseState(collectsWaypoints: options.collectWaypoints, collectsRoutePoints: options.collectRoutePoints))
    }

    /// Always ``FeedFormat/gpx``.
    public var format: FeedFormat? { .gpx }

    /// Route points, waypoints (when not collected) and suppressed XML errors.
    public var statistics: FeedStatistics { parser.state.pointee.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        parser.decode(chunk, into: &batch)
    }

    /// Ends the input: lets libxml2 report an unclosed document.
    public func finish(into batch: inout FeedBatch) {
        parser.finish(into: &batch)
    }
}
