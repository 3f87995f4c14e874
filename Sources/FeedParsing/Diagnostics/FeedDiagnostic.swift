/// Where in a feed something was found: a 1-based line (for line-oriented
/// formats and XML) and the byte offset of the record's first byte.
public struct FeedLocation: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number, or 0 when the format has no lines.
    public var line: Int
    /// The 0-based byte offset in the (UTF-8) input, or -1 when unknown.
    public var byteOffset: Int

    /// Creates a location.
    public init(line: Int, byteOffset: Int) {
        self.line = line
        self.byteOffset = byteOffset
    }

    /// `line 12` or `byte 4096`, whichever is known.
    public var description: String {
        if line > 0 { return "line \(line)" }
        return byteOffset >= 0 ? "byte \(byteOffset)" : "end of input"
    }
}

/// A record that a decoder skipped, with why and where.
///
/// Decoders never stop at bad input: a malformed record becomes one
/// diagnostic and the decoder goes on with the next one. The CLI prints
/// them (`file:line: message`), counts them by ``Code`` and, under
/// `--strict`, exits with status 2 at the first one.
public struct FeedDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem; the summary counts skipped records by code.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// An NMEA sentence whose `*hh` checksum does not match its bytes.
        case badChecksum
        /// A record without a field it needs (latitude, longitude, time…).
        case missingField
        /// A field that is present but cannot be read (not a number, out of range).
        case badField
        /// Bytes that are not a record at all (binary noise, free text).
        case garbage
        /// A record cut short: a collided or unterminated NMEA sentence, a line over the length limit.
        case truncated
        /// A receiver epoch that reported no valid fix (NMEA status V, GGA quality 0).
        case invalidFix
        /// An NMEA epoch with a time but no date yet (give `--date` for date-less logs).
        case noDate
        /// XML that is not well-formed (libxml2's message is kept).
        case badXML
        /// A CSV file without recognisable latitude/longitude columns, or a row that does not fit the header.
        case badHeader
        /// gpsd JSON that is not an object or not valid JSON.
        case badJSON
    }

    /// What went wrong.
    public var code: Code
    /// Whether the record was malformed input (what `--strict` rejects), as
    /// opposed to a well-formed report of no fix or of no date yet.
    public var isInputError: Bool { code != .invalidFix && code != .noDate }
    /// Where it went wrong.
    public var location: FeedLocation
    /// A sentence for a human: what was wrong, and what to do about it when that is not obvious.
    public var message: String

    /// Creates a diagnostic.
    public init(_ code: Code, at location: FeedLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    /// `line 12: badChecksum: …`.
    public var description: String { "\(location): \(code.rawValue): \(message)" }

    /// The line the commands print: `walk.nmea:12: badChecksum: …`,
    /// `walk.nmea:byte 4096: …` where the decoder knows no line, or
    /// `walk.nmea:end of input: …` for what only the end shows (a file cut
    /// short).
    public func located(in feed: String) -> String {
        let place = location.line > 0 ? "\(location.line)" : location.description
        return "\(feed):\(place): \(code.rawValue): \(message)"
    }
}
