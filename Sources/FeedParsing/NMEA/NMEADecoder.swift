import GeoCore

/// Decodes NMEA 0183 into fixes: a framer over byte chunks, a checksum
/// check, a table of sentence decoders, and an epoch assembler.
///
/// Tolerates what real receivers and logs contain: any talker (`GP`,
/// `GN`, `GL`, `GA`, `BD`, `GB`, `QZ`…), upper- or lower-case checksums,
/// missing checksums (accepted, as DESIGN.md says "checked when
/// present"), `$$` prefixes, CR/LF/CRLF, UTF-16 with a BOM, blank lines,
/// `#` comments and binary noise between sentences. Each skipped record
/// is one located ``FeedDiagnostic``; GSV, proprietary (`$P…`), AIS and
/// unknown sentences are counted in ``statistics``.
public final class NMEADecoder: FeedDecoder {
    private var transcoder = TextTranscoder()
    private var framer: NMEAFramer
    private var processor: NMEASentenceProcessor

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        framer = NMEAFramer(maximumLength: min(options.maximumLineLength, 4096))
        processor = NMEASentenceProcessor(defaultDate: options.defaultDate)
    }

    deinit { processor.deallocate() }

    /// Always ``FeedFormat/nmea``.
    public var format: FeedFormat? { .nmea }

    /// Sentences read and not decoded, by type, and GLL-only epochs
    /// dropped as copies of a GGA/RMC fix.
    public var statistics: FeedStatistics {
        var statistics = processor.statistics
        let stray = processor.epoch.strayGLLEpochs
        if stray > 0 { statistics.ignore("GLL copy of a GGA/RMC fix", count: stray) }
        return statistics
    }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        swap(&processor.batch, &batch)
        defer { swap(&processor.batch, &batch) }
        transcoder.transcode(chunk) { framer.feed($0, to: &processor) }
    }

    /// The receiver went quiet: the epoch in progress is complete.
    public func release(into batch: inout FeedBatch) {
        swap(&processor.batch, &batch)
        defer { swap(&processor.batch, &batch) }
        processor.releaseEpoch()
    }

    /// Ends the input: the last sentence and the last epoch.
    public func finish(into batch: inout FeedBatch) {
        swap(&processor.batch, &batch)
        defer { swap(&processor.batch, &batch) }
        transcoder.finish { framer.feed($0, to: &processor) }
        framer.finish(to: &processor)
        processor.flushEpoch()
    }
}

/// Checks and dispatches framed sentences.
struct NMEASentenceProcessor: NMEAFrameHandler {
    static let maximumFields = 64

    var batch = FeedBatch()
    var epoch: NMEAEpochAssembler
    var statistics = FeedStatistics()
    private let bounds: UnsafeMutablePointer<Int32>

    init(defaultDate: Int?) {
        epoch = NMEAEpochAssembler(defaultDate: defaultDate)
        bounds = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * Self.maximumFields)
    }

    func deallocate() { bounds.deallocate() }

    mutating func flushEpoch() { epoch.finish(into: &batch) }

    /// Emits the epoch in progress (and a GLL-only one waiting) without ending the input.
    mutating func releaseEpoch() { epoch.flushAll(into: &batch) }

    mutating func comment() {
        statistics.ignore("comment")
    }

    mutating func overlongSentence(limit: Int, at location: FeedLocation) {
        batch.diagnostics.append(
            FeedDiagnostic(
                .truncated, at: location,
                "sentence longer than \(limit) bytes (no line end); skipped up to the next line end or '$'"))
    }

    mutating func skipped(_ code: FeedDiagnostic.Code, length: Int, at location: FeedLocation) {
        let message =
            code == .garbage
            ? "\(length) byte(s) that are not an NMEA sentence (no '$'); skipped"
            : "sentence cut short after \(length) byte(s) (no line end or a new '$' inside it); skipped"
        batch.diagnostics.append(FeedDiagnostic(code, at: location, message))
    }

    mutating func sentence(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        if bytes[0] == 0x21 {  // `!AIVDM`…: AIS and other encapsulated sentences
            statistics.ignore("encapsulated (!)")
            return
        }
        let scan = NMEASentenceScan(bytes, bounds: bounds, maximumFields: Self.maximumFields)
        let fieldCount = scan.fieldCount
        let i = scan.star
        let checksum = scan.checksum
        if i < bytes.count, !Self.endsWithChecksum(checksum, bytes, star: i),
            let problem = checkChecksum(bytes, star: i, computed: checksum)
        {
            batch.diagnostics.append(FeedDiagnostic(.badChecksum, at: location, problem))
            return
        }
        let fields = NMEAFields(bytes: bytes, bounds: bounds, count: fieldCount)
        let address = fields.range(0)
        guard address.end - address.start == 5, bytes[address.start] != 0x50 else {
            statistics.ignore(
                address.end > address.start && bytes[address.start] == 0x50 ? "proprietary ($P)" : "unknown sentence")
            return
        }
        let type =
            UInt32(bytes[address.start + 2]) << 16 | UInt32(bytes[address.start + 3]) << 8
            | UInt32(bytes[address.start + 4])
        if let known = NMEASentenceType(packed: type) {
            guard fieldCount >= known.minimumFieldCount else {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .missingField, at: location,
                        "\(fields.text(0)) has \(fieldCount - 1) field(s), needs at least \(known.minimumFieldCount - 1); skipped"
                    ))
                return
            }
            if let problem = NMEASentenceTable.decode(known, fields, &epoch, location, &batch) {
                batch.diagnostics.append(FeedDiagnostic(.badField, at: location, "\(fields.text(0)): \(problem); skipped"))
            }
            return
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(address.start + 2)..<address.end]), as: UTF8.self)
        statistics.ignore(name == "GSV" ? "GSV" : "unknown sentence")
    }

    /// Whether the sentence ends in `*hh`, the hex digits of `computed`:
    /// the common case, checked where the sentence is read.
    @inline(__always)
    private static func endsWithChecksum(_ computed: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, star: Int) -> Bool {
        star + 3 == bytes.count && bytes[star + 1].isHexDigit && bytes[star + 2].isHexDigit
            && bytes[star + 1].hexValue << 4 | bytes[star + 2].hexValue == computed
    }

    /// Compares `*hh` with the computed checksum; a problem text, or `nil`
    /// when it matches or is absent (`*` with nothing after it).
    private func checkChecksum(_ bytes: UnsafeBufferPointer<UInt8>, star: Int, computed: UInt8) -> String? {
        if Self.endsWithChecksum(computed, bytes, star: star) { return nil }
        var end = bytes.count
        while end > star + 1, bytes[end - 1] == 0x20 { end -= 1 }
        let digits = end - star - 1
        if digits == 0 { return nil }
        guard digits <= 2, bytes[star + 1].isHexDigit, digits == 1 || bytes[star + 2].isHexDigit else {
            return
                "checksum field '\(Excerpt.of(bytes[(star + 1)..<end], limit: 12))' is not two hex digits; sentence skipped"
        }
        let stated = digits == 1 ? bytes[star + 1].hexValue : bytes[star + 1].hexValue << 4 | bytes[star + 2].hexValue
        guard stated == computed else {
            let hex = Array("0123456789ABCDEF".utf8)
            let expected = String(decoding: [hex[Int(computed >> 4)], hex[Int(computed & 15)]], as: UTF8.self)
            return
                "checksum \(String(decoding: UnsafeBufferPointer(rebasing: bytes[(star + 1)..<end]), as: UTF8.self)) does not match the sentence (computed \(expected)); sentence skipped"
        }
        return nil
    }
}
