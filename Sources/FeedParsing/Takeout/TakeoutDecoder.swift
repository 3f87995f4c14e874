import GeoCore

/// Decodes Google Takeout's raw location history, `Records.json` (`Location
/// History.json` in older exports): the positions a phone reported,
/// `{"locations": [ {"latitudeE7": …, "longitudeE7": …, "accuracy": …,
/// "timestamp": "…"}, … ]}`.
///
/// Each record becomes a fix: `latitudeE7`/`longitudeE7` ÷ 10⁷, the time
/// from `timestampMs` (milliseconds since 1970, older exports) where the
/// record has one, else from `timestamp` (RFC 3339), `accuracy` (metres),
/// `altitude`, `velocity` (m/s) and `heading`. A record's `deviceTag` names
/// its device, so that a phone's and a tablet's interleaved records are two
/// devices; records without one are the file's. The activity guesses nested
/// in a record, with times of their own, are passed over. Coordinates that
/// overflowed 32 bits in early exports are read as the signed values they
/// were.
///
/// The file streams through ``JSONArrayFramer``: gigabytes of history cost
/// the memory of one record. A history listed newest first, as older
/// exports list it, is handed on oldest first at its end
/// (``TakeoutRecordOrder``). A record that cannot be read is reported
/// with its index (`locations[12]`) and line, and skipped.
public final class TakeoutDecoder: FeedDecoder {
    private var transcoder = TextTranscoder()
    private var framer: JSONArrayFramer
    private var records = TakeoutRecordDecoder()

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        framer = JSONArrayFramer(arrays: ["locations"], maximumLength: options.maximumLineLength)
    }

    /// Always ``FeedFormat/takeout``.
    public var format: FeedFormat? { .takeout }

    /// Nothing is ignored but the members that make no fix.
    public var statistics: FeedStatistics { FeedStatistics() }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        swap(&records.batch, &batch)
        defer { swap(&records.batch, &batch) }
        transcoder.transcode(chunk) { bytes in framer.feed(bytes) { records.handle($0) } }
    }

    /// Ends the input: says so when it held no `locations` array or was cut short.
    public func finish(into batch: inout FeedBatch) {
        swap(&records.batch, &batch)
        defer { swap(&records.batch, &batch) }
        transcoder.finish { bytes in framer.feed(bytes) { records.handle($0) } }
        records.finish()
        let end = FeedLocation(line: 0, byteOffset: -1)
        if framer.isUnfinished {
            records.batch.diagnostics.append(
                FeedDiagnostic(
                    .truncated, at: end,
                    "the file ends inside its JSON document, after \(framer.recordCount) records (cut short?); "
                        + "the records before the cut are kept"))
        } else if !framer.sawArray, !records.sawNoJSON {
            records.batch.diagnostics.append(
                FeedDiagnostic(
                    .missingField, at: end,
                    "no \"locations\" array: not Google Takeout's location history (Records.json)"))
        }
    }
}

/// Turns the framed records into fixes and diagnostics.
struct TakeoutRecordDecoder {
    var batch = FeedBatch()
    private(set) var sawNoJSON = false
    private var devices = DeviceIDMemo()
    private var lastTag: (tag: Int64, id: DeviceID)?
    private var order = TakeoutRecordOrder()

    /// Ends the file: hands on the fixes of a history listed newest first.
    mutating func finish() {
        order.finish(into: &batch.fixes)
    }

    mutating func handle(_ event: JSONArrayFramer.Event) {
        switch event {
        case .record(let bytes, _, let index, let location): record(bytes, index: index, at: location)
        case .overlong(_, let index, let location):
            batch.diagnostics.append(
                FeedDiagnostic(
                    .truncated, at: location, "locations[\(index)] is longer than the longest record kept; skipped"))
        case .notJSON(let location):
            sawNoJSON = true
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badJSON, at: location,
                    "not Google Takeout's location history here (a JSON object holding a \"locations\" array); "
                        + "the rest of the file is skipped"))
        }
    }

    private mutating func record(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, at location: FeedLocation) {
        guard bytes.first == 0x7B else {
            return report(.badJSON, at: location, "\(name(index)) is not a location record (a JSON object); skipped")
        }
        var record = TakeoutRecord()
        var scanner = JSONObjectScanner(bytes: bytes, position: 0)
        guard scanner.scanObject(into: &record) else {
            let lines = bytes.prefix(scanner.position).count { $0 == 0x0A }
            let errorLine = FeedLocation(line: location.line + lines, byteOffset: location.byteOffset + scanner.position)
            return report(.badJSON, at: errorLine, "\(name(index)) is malformed JSON; skipped")
        }
        guard let latitudeE7 = record.latitudeE7, let longitudeE7 = record.longitudeE7 else {
            return report(.missingField, at: location, "\(name(index)) has no latitudeE7 and longitudeE7; skipped")
        }
        let coordinate = Coordinate(
            latitude: TakeoutRecord.unwrapped(latitudeE7, limit: 90) / 1e7,
            longitude: TakeoutRecord.unwrapped(longitudeE7, limit: 180) / 1e7)
        guard coordinate.isValid else {
            let e7 = [latitudeE7, longitudeE7].map { Int64(exactly: $0).map(String.init) ?? "\($0)" }
            return report(
                .badField, at: location,
                "\(name(index)) has latitudeE7 \(e7[0]), longitudeE7 \(e7[1]): out of range; skipped")
        }
        if let accuracy = record.accuracy, accuracy < 0 {
            return report(.badField, at: location, "\(name(index)) has a negative accuracy (\(accuracy)); skipped")
        }
        var time: Timestamp?
        switch record.time {
        case .success(let stamp): time = stamp
        case .failure(let problem):
            report(.badField, at: location, "\(name(index)): \(problem.message); the fix is kept without a time")
        case nil: report(.missingField, at: location, "\(name(index)) has no timestamp; the fix is kept without a time")
        }
        // -1 stood for "unknown" in some exports.
        var fix = Fix(
            time: time, coordinate: coordinate, elevation: record.altitude,
            speed: record.velocity.flatMap { $0 >= 0 ? $0 : nil },
            course: record.heading.flatMap { (0..<360).contains($0) ? $0 : nil }, accuracy: record.accuracy)
        fix.deviceID = deviceID(record)
        order.add(fix, to: &batch.fixes)
    }

    /// The device a record's `deviceTag` names; `nil` (the file's) without one.
    private mutating func deviceID(_ record: TakeoutRecord) -> DeviceID? {
        guard let tag = record.deviceTag else { return record.deviceTagText.map { devices.id(of: $0) } }
        if let lastTag, lastTag.tag == tag { return lastTag.id }
        let id = DeviceID(String(tag))
        lastTag = (tag, id)
        return id
    }

    /// How a record is named in a message: `locations[12]`.
    private func name(_ index: Int) -> String { "locations[\(index)]" }

    private mutating func report(_ code: FeedDiagnostic.Code, at location: FeedLocation, _ message: String) {
        batch.diagnostics.append(FeedDiagnostic(code, at: location, message))
    }
}
