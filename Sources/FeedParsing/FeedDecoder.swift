import GeoCore

/// The feed formats Repeat decodes.
public enum FeedFormat: String, Hashable, Sendable, CaseIterable {
    /// GPX 1.0 / 1.1 (track points are the feed).
    case gpx
    /// NMEA 0183 sentences.
    case nmea
    /// Comma-, semicolon-, tab- or pipe-separated values with a header.
    case csv
    /// gpsd JSON reports (`TPV` objects), one per line, as `gpspipe -w` writes them.
    case gpsd
    /// KML tracks (`gx:Track`), as Google Earth and GPSBabel write them.
    case kml
    /// Garmin Training Center (TCX) track points: read, not written.
    case tcx
    /// Garmin FIT activity and course records (binary).
    case fit
    /// Google Takeout's raw location history (`Records.json`): read, not written.
    case takeout
    /// Google's on-device Timeline export (`Timeline.json`, Android's
    /// object or iOS's array): read, not written.
    case timeline

    /// The format's name in a sentence: `GPX`, `NMEA`, `gpsd JSON`.
    public var name: String {
        switch self {
        case .gpsd: "gpsd JSON"
        case .takeout: "Google Takeout location history"
        case .timeline: "Google Timeline export"
        case .gpx, .nmea, .csv, .kml, .tcx, .fit: rawValue.uppercased()
        }
    }

    /// Whether Repeat writes this format as well as reads it
    /// (``makeFeedEncoder(format:)``): all but those with a
    /// ``reasonNotWritten``.
    public var isWritten: Bool { reasonNotWritten == nil }

    /// Why Repeat does not write this format, `nil` when it does: a TCX
    /// lap opens with totals that a stream cannot know before its end;
    /// Takeout's history and the Timeline export are Google's exports of
    /// a phone's own record.
    public var reasonNotWritten: String? {
        switch self {
        case .tcx: "a lap opens with totals a stream cannot know"
        case .takeout, .timeline: "it is Google's export of a phone's history, read to replay it"
        case .gpx, .nmea, .csv, .gpsd, .kml, .fit: nil
        }
    }

    /// The formats Repeat writes.
    public static let written = allCases.filter(\.isWritten)
}

/// Settings shared by all decoders.
public struct FeedDecodingOptions: Hashable, Sendable {
    /// The UTC date (days since 1970-01-01) for NMEA logs that carry none
    /// (GGA-only); RMC/ZDA dates in the log take precedence. It must lie
    /// in ``datesHeld``.
    public var defaultDate: Int?
    /// The days whose every time a ``Timestamp`` holds, 1677-09-22 to
    /// 2262-04-10: where ``defaultDate`` may lie, and where a log's dates
    /// stop moving on at midnight.
    public static let datesHeld = -106_751...106_750
    /// Whether to collect GPX waypoints (and a KML file's Point
    /// placemarks) into ``FeedBatch/waypoints``.
    public var collectWaypoints: Bool
    /// Whether to collect GPX route points (`rtept`) into
    /// ``FeedBatch/routePoints`` (a planned route to simulate).
    public var collectRoutePoints: Bool
    /// The longest line or sentence kept, in bytes; longer ones are
    /// reported as truncated and dropped, which bounds memory on garbage.
    public var maximumLineLength: Int
    /// The names of a CSV file's columns, in order, for a file without a
    /// header line (`["lon", "lat", "ele", "name", "time"]`), matched like
    /// header names; a first line that is itself a header is skipped.
    /// `nil`: the file's own header, or `lat,lon` when it has none.
    public var csvColumns: [String]?

    /// Creates options.
    public init(
        defaultDate: Int? = nil, collectWaypoints: Bool = false, maximumLineLength: Int = 64 * 1024,
        csvColumns: [String]? = nil, collectRoutePoints: Bool = false
    ) {
        self.defaultDate = defaultDate
        self.collectWaypoints = collectWaypoints
        self.collectRoutePoints = collectRoutePoints
        self.maximumLineLength = maximumLineLength
        self.csvColumns = csvColumns
    }

    /// Why `names` cannot be ``csvColumns`` — they name no latitude and
    /// longitude and no grid columns — or `nil` when they can.
    public static func problem(withCSVColumns names: [String]) -> String? {
        if CSVColumns.locatePosition(names) { return nil }
        return
            "the column names \(names.joined(separator: ",")) name no latitude and longitude (lat/latitude, lon/lng/longitude) and no grid columns (UTM, Swiss, BNG)"
    }
}

/// A chunked, bounded decoder: bytes in, fixes and diagnostics out.
///
/// Every format follows the same contract. Feed the input in chunks of
/// any size (one byte, a pipe read, a 1 MiB file block) with
/// ``decode(_:into:)``; each call appends what the bytes completed to the
/// batch. Call ``finish(into:)`` once at the end of the input to flush
/// the last record. The result does not depend on where chunks are split.
/// Memory is bounded by the longest record, not by the input.
public protocol FeedDecoder: AnyObject {
    /// The format this decoder reads, once known (auto-detection decides
    /// after the first bytes).
    var format: FeedFormat? { get }
    /// Records read and deliberately ignored, by kind.
    var statistics: FeedStatistics { get }
    /// Decodes the next chunk of input.
    func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch)
    /// Ends the input: flushes a pending record or epoch.
    func finish(into batch: inout FeedBatch)
    /// The input has gone quiet (a live source sent nothing for a while):
    /// hands on what is held only because its end was not seen yet — the
    /// NMEA epoch in progress, which would otherwise wait for the next
    /// epoch's first sentence. Decoding goes on afterwards.
    func release(into batch: inout FeedBatch)
}

extension FeedDecoder {
    /// Nothing is held past a record's end: records end with their line or element.
    public func release(into batch: inout FeedBatch) {}

    /// Decodes the next chunk of input from a byte array.
    public func decode(_ bytes: [UInt8], into batch: inout FeedBatch) {
        bytes.withUnsafeBytes { decode($0, into: &batch) }
    }

    /// Decodes a whole input at once: `decode` then `finish`.
    public func decodeAll(_ bytes: [UInt8]) -> FeedBatch {
        var batch = FeedBatch()
        decode(bytes, into: &batch)
        finish(into: &batch)
        return batch
    }
}

/// Makes the decoder for a format, or one that detects the format from
/// the first bytes when `format` is `nil`.
public func makeFeedDecoder(format: FeedFormat?, options: FeedDecodingOptions = .init()) -> any FeedDecoder {
    switch format {
    case .gpx: return GPXDecoder(options: options)
    case .nmea: return NMEADecoder(options: options)
    case .csv: return CSVDecoder(options: options)
    case .gpsd: return GPSDDecoder(options: options)
    case .kml: return KMLDecoder(options: options)
    case .tcx: return TCXDecoder(options: options)
    case .fit: return FITDecoder(options: options)
    case .takeout: return TakeoutDecoder(options: options)
    case .timeline: return TimelineDecoder(options: options)
    case nil: return SniffingDecoder(options: options)
    }
}
