import GeoCore

/// Writes fixes as CSV with a header line, in the column names
/// ``CSVDecoder`` matches: `time,lat,lon,ele,speed,course,hdop,accuracy,device`
/// or the subset the caller chooses up front.
///
/// Times are RFC 3339 UTC with the fix's own fraction digits, latitude and
/// longitude have 9 decimals (0.1 mm), the other numbers 3. An absent
/// value is an empty cell. A device name with a delimiter or a quote is
/// quoted (`"a, ""b"""`); the decoder trims a name's edge blanks, and a
/// name with a line break cannot be read back. CSV has no invalid
/// fix: `valid: false` writes nothing.
public struct CSVEncoder: FeedEncoder {
    /// A column the encoder can write, named as in the header.
    public enum Column: String, Sendable, CaseIterable {
        case time, lat, lon, ele, speed, course, hdop, accuracy, device
    }

    /// The columns, in order.
    public let columns: [Column]

    /// Creates an encoder writing `columns` (every column by default;
    /// `lat` and `lon` are required).
    public init(columns: [Column] = Column.allCases) {
        precondition(columns.contains(.lat) && columns.contains(.lon), "a CSV feed needs lat and lon columns")
        self.columns = columns
    }

    /// Always ``FeedFormat/csv``.
    public var format: FeedFormat { .csv }

    /// The header line.
    public func appendHeader(to bytes: inout [UInt8]) {
        for (index, column) in columns.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            bytes.append(contentsOf: column.rawValue.utf8)
        }
        bytes.append(0x0A)
    }

    /// Appends one row.
    public func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        guard valid else { return }
        for (index, column) in columns.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            switch column {
            case .time: if let time = fix.time { RFC3339.append(time, to: &bytes) }
            case .lat: DecimalText.append(fix.coordinate.latitude, decimals: 9, to: &bytes)
            case .lon: DecimalText.append(fix.coordinate.longitude, decimals: 9, to: &bytes)
            case .ele: appendNumber(fix.elevation, to: &bytes)
            case .speed: appendNumber(fix.speed, to: &bytes)
            case .course: appendNumber(fix.course, to: &bytes)
            case .hdop: appendNumber(fix.hdop, to: &bytes)
            case .accuracy: appendNumber(fix.accuracy, to: &bytes)
            case .device: if let device = fix.device { appendText(device, to: &bytes) }
            }
        }
        bytes.append(0x0A)
    }

    /// CSV has no footer.
    public func appendFooter(to bytes: inout [UInt8]) {}

    private func appendNumber(_ value: Double?, to bytes: inout [UInt8]) {
        guard let value, value.isFinite else { return }
        DecimalText.append(value, decimals: 3, to: &bytes)
    }

    /// A cell, quoted with doubled quotes when it holds a quote or any of the
    /// delimiters the decoder detects (`,` `;` tab `|`).
    private func appendText(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x3B || $0 == 0x09 || $0 == 0x7C }) else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        for byte in utf8 {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
    }
}
