import GeoCore

/// Decodes CSV position logs: loose header matching, `,` `;` tab or `|`,
/// quoted fields, RFC 3339 or epoch seconds/milliseconds (or separate
/// date and time-of-day columns), an optional device column. Files with
/// UTM, Swiss LV03 or British National Grid columns instead of
/// latitude/longitude are converted to WGS 84 (``CSVGridColumns``).
///
/// A row without a readable latitude/longitude is one diagnostic; a row
/// with an empty time cell becomes a fix without a time (the replay
/// pipeline reports and skips those). Lines starting with `#` and blank
/// lines are ignored. Quoted fields may not span lines.
public final class CSVDecoder: FeedDecoder {
    private var transcoder = TextTranscoder()
    private var framer: LineFramer
    private var rows: CSVRowDecoder

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        framer = LineFramer(maximumLength: options.maximumLineLength)
        rows = CSVRowDecoder(givenNames: options.csvColumns)
    }

    /// Always ``FeedFormat/csv``.
    public var format: FeedFormat? { .csv }

    /// Comment lines and header lines read.
    public var statistics: FeedStatistics { rows.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        swap(&rows.batch, &batch)
        defer { swap(&rows.batch, &batch) }
        transcoder.transcode(chunk) { framer.feed($0, to: &rows) }
        rows.nameDevices()
    }

    /// Ends the input: an unterminated last row.
    public func finish(into batch: inout FeedBatch) {
        swap(&rows.batch, &batch)
        defer { swap(&rows.batch, &batch) }
        transcoder.finish { framer.feed($0, to: &rows) }
        framer.finish(to: &rows)
        rows.nameDevices()
    }
}

/// Turns CSV lines into fixes once the header is known.
struct CSVRowDecoder: LineHandler {
    var batch = FeedBatch()
    var statistics = FeedStatistics()
    private var columns: CSVColumns?
    /// Grid-coordinate columns, when the header names no latitude/longitude
    /// (kept apart from ``columns`` so that the per-row copy stays small).
    private var grid: CSVGridColumns?
    private var delimiter: UInt8 = 0x2C
    private var starts: [Int] = []
    private var ends: [Int] = []
    private var devices = PendingDeviceNames()
    /// Column names given instead of the file's header (`--columns`).
    private let givenNames: [String]?

    init(givenNames: [String]? = nil) {
        self.givenNames = givenNames
    }

    /// Gives the fixes decoded since the last call their devices: their
    /// names are interned together (``PendingDeviceNames``). Called at the
    /// end of every chunk, and whenever enough fixes wait.
    mutating func nameDevices() { devices.resolve(&batch.fixes) }

    mutating func overlongLine(limit: Int, at location: FeedLocation) {
        batch.diagnostics.append(FeedDiagnostic(.truncated, at: location, "line longer than \(limit) bytes; skipped"))
    }

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        var first = 0
        while first < bytes.count, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        if first == bytes.count { return }
        if bytes[first] == 0x23 {
            statistics.ignore("comment")
            return
        }
        guard let columns else {
            readHeader(bytes, at: location)
            return
        }
        split(bytes)
        decodeRow(bytes, columns, at: location)
    }

    private mutating func readHeader(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        delimiter = CSVDelimiter.detect(bytes)
        split(bytes)
        let names = (0..<starts.count).map { text(bytes, $0) }
        if let givenNames {
            guard adoptColumns(givenNames) else {
                refuseFile(FeedDecodingOptions.problem(withCSVColumns: givenNames) ?? "", at: location)
                return
            }
            if CSVColumns.locatePosition(names) {
                statistics.ignore("header")
            } else {
                decodeRow(bytes, columns!, at: location)
            }
            return
        }
        if adoptColumns(names) {
            statistics.ignore("header")
            return
        }
        if starts.count >= 2, ASCIIDecimal.double(bytes, starts[0], ends[0]) != nil,
            ASCIIDecimal.double(bytes, starts[1], ends[1]) != nil
        {
            columns = CSVColumns(headerless: ())
            decodeRow(bytes, columns!, at: location)
            return
        }
        refuseFile(
            "header '\(Excerpt.of(bytes, limit: 80))' names no latitude and longitude columns (lat/latitude, lon/lng/longitude) and no grid columns (UTM, Swiss, BNG)",
            at: location)
    }

    /// Reports that the file's columns cannot be read and skips its rows.
    private mutating func refuseFile(_ reason: String, at location: FeedLocation) {
        batch.diagnostics.append(FeedDiagnostic(.badHeader, at: location, reason + "; the file is skipped"))
        var unusable = CSVColumns(headerless: ())
        unusable.latitude = nil
        columns = unusable
    }

    /// Takes the columns that header `names` give, latitude/longitude or
    /// grid; `false` when they name neither.
    private mutating func adoptColumns(_ names: [String]) -> Bool {
        let named = CSVColumns(header: names)
        if named.namesPosition {
            columns = named
            return true
        }
        guard let grid = CSVGridColumns(normalizedNames: names.map(CSVField.normalize)) else { return false }
        columns = named
        self.grid = grid
        return true
    }

    private mutating func split(_ bytes: UnsafeBufferPointer<UInt8>) {
        CSVFieldSplitter.split(bytes, delimiter: delimiter, starts: &starts, ends: &ends)
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> String {
        CSVFieldSplitter.text(bytes, starts[index], ends[index])
    }

    /// Why a row's time was not read: a date-time outside the years a
    /// timestamp holds is named as one.
    private func invalidTime(_ bytes: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns) -> String {
        if let column = columns.time {
            let text = gridText(bytes, column)
            if let outside = RFC3339.outsideHeldSpan(text) { return "time '\(text)' is \(outside)" }
        }
        return "time is not RFC 3339, epoch seconds/milliseconds, or a date and time of day"
    }

    /// A cell's text without surrounding blanks; empty when the row has no such cell.
    private func gridText(_ bytes: UnsafeBufferPointer<UInt8>, _ column: Int) -> String {
        guard column < starts.count else { return "" }
        return CSVFieldSplitter.trimmedText(bytes, starts[column], ends[column])
    }

    /// Inlined: called out of line, each call copied the whole decoder.
    @inline(__always)
    private func number(_ bytes: UnsafeBufferPointer<UInt8>, _ column: Int?) -> FieldValue<Double> {
        guard let column, column < starts.count, starts[column] < ends[column] else { return .absent }
        guard let value = ASCIIDecimal.double(bytes, starts[column], ends[column]) else {
            var s = starts[column]
            while s < ends[column], bytes[s] == 0x20 { s += 1 }
            return s == ends[column] ? .absent : .invalid
        }
        return value.isFinite ? .value(value) : .invalid
    }

    /// A latitude or longitude: a decimal number, or a written angle
    /// (degrees, minutes, seconds, hemisphere letter).
    private func angle(
        _ bytes: UnsafeBufferPointer<UInt8>, _ column: Int?, positive: UInt8, negative: UInt8
    ) -> FieldValue<Double> {
        let plain = number(bytes, column)
        guard case .invalid = plain, let column else { return plain }
        let value = CSVAngle.parse(
            bytes, starts[column], ends[column], positive: positive, negative: negative, decimalComma: delimiter != 0x2C)
        return value.map { .value($0) } ?? .invalid
    }

    private mutating func decodeRow(_ bytes: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns, at location: FeedLocation) {
        guard let latColumn = columns.latitude else {
            decodeGridRow(bytes, columns, at: location)
            return
        }
        guard case .value(let latitude) = angle(bytes, latColumn, positive: 0x4E, negative: 0x53),
            case .value(let longitude) = angle(bytes, columns.longitude, positive: 0x45, negative: 0x57)
        else {
            let missing = number(bytes, latColumn).isAbsent || number(bytes, columns.longitude).isAbsent
            reportSkipped(
                missing ? .missingField : .badField,
                missing ? "no latitude/longitude" : "latitude/longitude is not a decimal number",
                at: location)
            return
        }
        appendFix(Coordinate(latitude: latitude, longitude: longitude), bytes, columns, at: location)
    }

    /// A row of a file with grid columns instead of latitude/longitude
    /// (out of line: the latitude/longitude path is the hot one).
    @inline(never)
    private mutating func decodeGridRow(_ bytes: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns, at location: FeedLocation) {
        guard let grid else {
            statistics.ignore("row without a usable header")
            return
        }
        switch grid.coordinate(number: { number(bytes, $0) }, text: { gridText(bytes, $0) }) {
        case .value(let position): appendFix(position, bytes, columns, at: location)
        case .absent: reportSkipped(.missingField, "no \(grid.name)", at: location)
        case .invalid: reportSkipped(.badField, "\(grid.name) is not a valid grid position", at: location)
        }
    }

    /// Checks the position, reads the time and the other columns, and adds the fix.
    @inline(__always)
    private mutating func appendFix(
        _ coordinate: Coordinate, _ bytes: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns, at location: FeedLocation
    ) {
        guard coordinate.isValid else {
            reportSkipped(.badField, "position \(coordinate.latitude),\(coordinate.longitude) is out of range", at: location)
            return
        }
        let time: Timestamp?
        switch CSVTime.read(bytes, starts: starts, ends: ends, columns: columns) {
        case .value(let value): time = value
        case .absent: time = nil
        case .invalid:
            reportSkipped(.badField, invalidTime(bytes, columns), at: location)
            return
        }
        var fix = Fix(time: time, coordinate: coordinate)
        if case .value(let v) = number(bytes, columns.elevation) { fix.elevation = v }
        if case .value(let v) = number(bytes, columns.speed) { fix.speed = v }
        if case .value(let v) = number(bytes, columns.course) { fix.course = v }
        if case .value(let v) = number(bytes, columns.hdop) { fix.hdop = v }
        if case .value(let v) = number(bytes, columns.accuracy) { fix.accuracy = v }
        // A negative accuracy or HDOP is a broken record, not a very accurate one.
        if let accuracy = fix.accuracy, accuracy < 0 {
            reportSkipped(.badField, "accuracy \(accuracy) is negative", at: location)
            return
        }
        if let hdop = fix.hdop, hdop < 0 {
            reportSkipped(.badField, "hdop \(hdop) is negative", at: location)
            return
        }
        if let column = columns.device, column < starts.count, starts[column] < ends[column] {
            let (start, end) = (starts[column], ends[column])
            fix.deviceID = devices.id(of: CSVFieldSplitter.trimmed(bytes, start, end), forFix: batch.fixes.count) {
                CSVFieldSplitter.trimmedText(bytes, start, end)
            }
        }
        batch.fixes.append(fix)
        if devices.isFull { nameDevices() }
    }

    private mutating func reportSkipped(_ code: FeedDiagnostic.Code, _ message: String, at location: FeedLocation) {
        batch.diagnostics.append(FeedDiagnostic(code, at: location, message + "; row skipped"))
    }
}

extension FieldValue {
    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }
}

extension String {
    func replacingDoubledQuotes() -> String {
        // Two quote bytes in a row are needed for a doubled quote: a byte
        // scan rules out nearly every field (a substring search cost ~7k
        // instructions a fix).
        var previous: UInt8 = 0
        guard
            utf8.contains(where: { byte in
                defer { previous = byte }
                return byte == 0x22 && previous == 0x22
            })
        else { return self }
        var result = ""
        var previousQuote = false
        for c in self {
            if c == "\"", previousQuote {
                previousQuote = false
                continue
            }
            previousQuote = c == "\""
            result.append(c)
        }
        return result
    }
}
