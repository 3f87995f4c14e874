import GeoCore

/// A streaming writer of one feed format: a header, one record per fix,
/// a footer, each appended to a byte buffer.
///
/// Encoders keep no more state than the record they write (GPX remembers
/// the device of the open track, NMEA the date of the last epoch's day),
/// so a caller can write millions of fixes to a file by flushing the
/// buffer now and then, with flat memory. Output is deterministic: the
/// same fixes give the same bytes. Every format reads back through its
/// decoder (``makeFeedDecoder(format:options:)``) as the same fixes, to the
/// precision each encoder documents.
///
/// ```swift
/// var encoder = makeFeedEncoder(format: .nmea)
/// var bytes: [UInt8] = []
/// encoder.appendHeader(to: &bytes)
/// for fix in fixes { encoder.append(fix, valid: true, to: &bytes) }
/// encoder.appendFooter(to: &bytes)
/// ```
public protocol FeedEncoder: Sendable {
    /// The format written.
    var format: FeedFormat { get }
    /// Appends what comes before the first fix (GPX's prolog, CSV's header line).
    mutating func appendHeader(to bytes: inout [UInt8])
    /// Appends one fix. `valid: false` writes a receiver epoch without a fix
    /// where the format has one (NMEA status V, gpsd mode 1: a cold start)
    /// and nothing where it has not (GPX, CSV).
    mutating func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8])
    /// Appends what comes after the last fix (GPX's closing tags).
    mutating func appendFooter(to bytes: inout [UInt8])
    /// Once the footer is appended, the bytes that replace the start of
    /// the output (FIT's header, which holds the data's length); `nil`
    /// for the formats written straight through.
    var rewrittenStart: [UInt8]? { get }
}

extension FeedEncoder {
    /// Nothing to rewrite: the output is final as appended.
    public var rewrittenStart: [UInt8]? { nil }

    /// Appends one valid fix.
    public mutating func append(_ fix: Fix, to bytes: inout [UInt8]) {
        append(fix, valid: true, to: &bytes)
    }
}

/// Makes the encoder for a format with its default settings: NMEA as
/// `GP` GGA + RMC + GSA, CSV with every column.
/// - Precondition: `format` ``FeedFormat/isWritten`` (TCX and Google's
///   histories are read only).
public func makeFeedEncoder(format: FeedFormat) -> any FeedEncoder {
    switch format {
    case .nmea: return NMEAEncoder()
    case .gpx: return GPXEncoder()
    case .csv: return CSVEncoder()
    case .gpsd: return GPSDEncoder()
    case .kml: return KMLEncoder()
    case .fit: return FITEncoder()
    case .tcx, .takeout, .timeline: preconditionFailure("\(format.name) is read, not written")
    }
}
