import GeoCore

/// Decodes gpsd's JSON reports, one object per line (`gpspipe -w`, or the
/// lines a gpsd server sends after `?WATCH={"enable":true,"json":true}`).
///
/// `TPV` objects with `mode` 2 or 3 and `lat`/`lon` become fixes: `time`,
/// `altMSL` (else `alt`, else `altHAE`), `speed`, `track` (course), `eph`
/// (horizontal accuracy) and `device`. A TPV with mode 0/1 is an invalid
/// fix; other classes (`VERSION`, `DEVICES`, `WATCH`, `SKY`…) and echoed
/// NMEA lines are counted and ignored. Each line is read by a hand-written
/// scanner, without building a dictionary.
public final class GPSDDecoder: FeedDecoder {
    private var transcoder = TextTranscoder()
    private var framer: LineFramer
    private var lines = GPSDLineDecoder()

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        framer = LineFramer(maximumLength: options.maximumLineLength)
    }

    /// Always ``FeedFormat/gpsd``.
    public var format: FeedFormat? { .gpsd }

    /// Reports read and ignored, by class.
    public var statistics: FeedStatistics { lines.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        swap(&lines.batch, &batch)
        defer { swap(&lines.batch, &batch) }
        transcoder.transcode(chunk) { framer.feed($0, to: &lines) }
    }

    /// Ends the input.
    public func finish(into batch: inout FeedBatch) {
        swap(&lines.batch, &batch)
        defer { swap(&lines.batch, &batch) }
        transcoder.finish { framer.feed($0, to: &lines) }
        framer.finish(to: &lines)
    }
}

/// Turns gpsd JSON lines into fixes.
struct GPSDLineDecoder: LineHandler {
    var batch = FeedBatch()
    var statistics = FeedStatistics()
    private var devices = DeviceIDMemo()

    mutating func overlongLine(limit: Int, at location: FeedLocation) {
        batch.diagnostics.append(FeedDiagnostic(.truncated, at: location, "line longer than \(limit) bytes; skipped"))
    }

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        var first = 0
        while first < bytes.count, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        guard first < bytes.count else { return }
        switch bytes[first] {
        case 0x7B: break
        case 0x24, 0x21:
            statistics.ignore("NMEA line")
            return
        case 0x23:
            statistics.ignore("comment")
            return
        default:
            batch.diagnostics.append(FeedDiagnostic(.badJSON, at: location, "line is not a JSON object; skipped"))
            return
        }
        var report = GPSDReport()
        var scanner = JSONObjectScanner(bytes: bytes, position: first)
        guard scanner.scanObject(into: &report) else {
            batch.diagnostics.append(
                FeedDiagnostic(.badJSON, at: location, "malformed JSON at column \(scanner.position + 1); skipped"))
            return
        }
        guard report.isTPV else {
            statistics.ignore(report.className ?? "object without class")
            return
        }
        guard report.mode >= 2 else {
            batch.diagnostics.append(FeedDiagnostic(.invalidFix, at: location, "TPV with mode \(report.mode) (no fix)"))
            if let time = report.time.flatMap(RFC3339.parse) {
                batch.epochsWithoutFix.append(EpochWithoutFix(time: time, device: report.device))
            }
            return
        }
        guard let latitude = report.latitude, let longitude = report.longitude else {
            batch.diagnostics.append(
                FeedDiagnostic(.missingField, at: location, "TPV with mode \(report.mode) but no lat/lon; skipped"))
            return
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            batch.diagnostics.append(
                FeedDiagnostic(.badField, at: location, "TPV position \(latitude),\(longitude) is out of range; skipped"))
            return
        }
        // A negative error estimate is a broken report, not a very accurate one.
        if let eph = report.eph, eph < 0 {
            batch.diagnostics.append(FeedDiagnostic(.badField, at: location, "TPV eph \(eph) is negative; skipped"))
            return
        }
        var time: Timestamp?
        if let text = report.time {
            time = RFC3339.parse(text)
            if time == nil {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .badField, at: location,
                        "TPV time '\(text)' is \(RFC3339.outsideHeldSpan(text) ?? "not RFC 3339"); "
                            + "the fix is kept without a time"))
            }
        }
        var fix = Fix(
            time: time, coordinate: coordinate, elevation: report.altitudeMSL ?? report.altitude ?? report.altitudeHAE,
            speed: report.speed, course: report.track, accuracy: report.eph)
        fix.deviceID = report.device.map { devices.id(of: $0) }
        batch.fixes.append(fix)
    }
}

/// The TPV fields the decoder reads.
struct GPSDReport: JSONMemberSink {
    var className: String?
    var isTPV = false
    var mode = 0
    var device: String?
    var time: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var altitudeMSL: Double?
    var altitudeHAE: Double?
    var speed: Double?
    var track: Double?
    var eph: Double?

    /// Stores one top-level member.
    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        switch String(decoding: key, as: UTF8.self) {
        case "class":
            className = value.string
            isTPV = className == "TPV"
        // 0…3 in gpsd; anything else (1e19 from a hostile peer) is no fix, never a trap.
        case "mode": mode = value.number.map { (0...3).contains($0) ? Int($0) : 0 } ?? 0
        case "device": device = value.string
        case "time": time = value.string
        case "lat": latitude = value.number
        case "lon": longitude = value.number
        case "alt": altitude = value.number
        case "altMSL": altitudeMSL = value.number
        case "altHAE": altitudeHAE = value.number
        case "speed": speed = value.number
        case "track": track = value.number
        case "eph": eph = value.number
        default: break
        }
    }
}
