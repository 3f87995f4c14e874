/// The columns of a CSV feed that Repeat reads, found by loose header matching.
struct CSVColumns: Equatable {
    var latitude: Int?
    var longitude: Int?
    /// One column with a full date-time (RFC 3339) or epoch seconds/milliseconds.
    var time: Int?
    /// A date column (`2024/08/05`, `2024-08-05`), combined with ``clock``.
    var date: Int?
    /// A time-of-day column (`18:02:26`, `13:20:20.004`, `11:00:01 AM`), combined with ``date``.
    var clock: Int?
    var elevation: Int?
    var speed: Int?
    var course: Int?
    var hdop: Int?
    var accuracy: Int?
    var device: Int?

    /// The field each column property holds; header names come from ``CSVField/aliases``.
    static var fields: [(WritableKeyPath<CSVColumns, Int?>, CSVField)] {
        [
            (\.latitude, .latitude), (\.longitude, .longitude), (\.time, .time), (\.date, .date),
            (\.elevation, .elevation), (\.speed, .speed), (\.course, .course), (\.hdop, .hdop),
            (\.accuracy, .accuracy), (\.device, .device),
        ]
    }

    /// Reads a header row. ``namesPosition`` tells whether it found both a
    /// latitude and a longitude column; if not, the file may still have
    /// grid columns (``CSVGridColumns``).
    ///
    /// Names are matched exactly (after ``CSVField/normalize(_:)``) first. Where no
    /// column is exactly a latitude or longitude, a column whose name
    /// contains `lat` (resp. `lon`/`lng`) and not the other, and that no
    /// other field took, is used — as GPSBabel's unicsv does (`ilat`,
    /// `gps_lat_deg`, `LongitudeE`).
    init(header fields: [String]) {
        let normalized = fields.map(CSVField.normalize)
        let clockNames = CSVField.clock.aliases
        for (index, name) in normalized.enumerated() {
            for (keyPath, field) in Self.fields where self[keyPath: keyPath] == nil && field.aliases.contains(name) {
                self[keyPath: keyPath] = index
                break
            }
            if clockNames.contains(name), clock == nil { clock = index }
        }
        if date == nil {
            clock = nil
        } else if clock == time {
            time = nil
        }
        if latitude == nil || longitude == nil {
            let taken = Set(Self.fields.compactMap { self[keyPath: $0.0] } + [clock].compactMap { $0 })
            func containing(_ parts: [String], not others: [String]) -> Int? {
                normalized.indices.first { index in
                    let name = normalized[index]
                    return !taken.contains(index) && parts.contains { name.contains($0) }
                        && !others.contains { name.contains($0) }
                }
            }
            if latitude == nil { latitude = containing(["lat"], not: ["lon", "lng"]) }
            if longitude == nil { longitude = containing(["lon", "lng"], not: ["lat"]) }
        }
        if latitude == nil || longitude == nil {
            latitude = nil
            longitude = nil
        }
    }

    /// Whether the header named both a latitude and a longitude column.
    var namesPosition: Bool { latitude != nil }

    /// Whether header `names` locate a position: latitude and longitude
    /// columns, or grid columns (``CSVGridColumns``).
    static func locatePosition(_ names: [String]) -> Bool {
        CSVColumns(header: names).namesPosition || CSVGridColumns(normalizedNames: names.map(CSVField.normalize)) != nil
    }

    /// Columns of a file without a header: `lat,lon` first (GPSBabel's plain `csv`).
    init(headerless: ()) {
        latitude = 0
        longitude = 1
    }
}

/// A CSV separator, chosen from the header line.
enum CSVDelimiter {
    /// The separator of a header line: the most frequent of `,` `;` tab
    /// `|` outside quotes (ties in that order), `,` if none.
    static func detect(_ line: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        var counts = [0, 0, 0, 0]
        var quoted = false
        for b in line {
            if b == 0x22 { quoted.toggle() }
            if quoted { continue }
            if let k = candidates.firstIndex(of: b) { counts[k] += 1 }
        }
        var best = 0
        for k in 1..<4 where counts[k] > counts[best] { best = k }
        return candidates[best]
    }
}

/// What a line is to a CSV feed, for format sniffing.
enum CSVRecordShape {
    /// A header that names a position's columns.
    case header
    /// A headerless row that opens with two numbers (GPSBabel's plain `lat,lon`).
    case row

    /// The shape of `line` as ``CSVDecoder`` reads it, or `nil` when it opens no CSV feed.
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        var starts: [Int] = []
        var ends: [Int] = []
        CSVFieldSplitter.split(line, delimiter: CSVDelimiter.detect(line), starts: &starts, ends: &ends)
        guard starts.count >= 2 else { return nil }
        if ASCIIDecimal.double(line, starts[0], ends[0]) != nil, ASCIIDecimal.double(line, starts[1], ends[1]) != nil {
            self = .row
        } else if CSVColumns.locatePosition(starts.indices.map { CSVFieldSplitter.trimmedText(line, starts[$0], ends[$0]) }) {
            self = .header
        } else {
            return nil
        }
    }
}
