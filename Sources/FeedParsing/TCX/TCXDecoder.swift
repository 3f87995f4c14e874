import CLibXML2
import GeoCore

/// Decodes the track points of a Garmin Training Center file (TCX, as
/// Garmin Connect, Strava and GPSBabel export activities and courses)
/// through libxml2's SAX2 push parser (``XMLPushParser``): chunks in,
/// fixes out, constant memory.
///
/// Each `Trackpoint` with a `Position` is a fix: `Time`,
/// `LatitudeDegrees`/`LongitudeDegrees`, `AltitudeMeters`, and the `Speed`
/// (m/s) of its `Extensions` (Garmin's ActivityExtension `TPX`), in an
/// activity's laps or a course alike, as GPSBabel reads them. A track point
/// without a position (heart rate recorded while the receiver had no fix,
/// an indoor ride) is counted, not a fix. Course points are counted;
/// heart rate, cadence, distance and laps' totals are not read. Elements
/// are matched by local name, so any prefix works; XML and encoding errors
/// are handled as ``GPXDecoder`` handles them.
public final class TCXDecoder: FeedDecoder {
    private let parser = XMLPushParser(TCXParseState())

    /// Creates a decoder (TCX needs no options).
    public init(options: FeedDecodingOptions = .init()) {}

    /// Always ``FeedFormat/tcx``.
    public var format: FeedFormat? { .tcx }

    /// Track points without a position, course points and suppressed XML errors.
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
