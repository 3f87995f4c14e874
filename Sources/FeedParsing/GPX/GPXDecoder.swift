import CLibXML2
import GeoCore

/// Decodes GPX 1.0 and 1.1 through libxml2's SAX2 push parser
/// (`xmlCreatePushParserCtxt` + `xmlParseChunk`): chunks in, fixes out,
/// constant memory.
///
/// Track points (`trkpt`) are the feed, with `ele`, `time`, `hdop` and
/// GPX 1.0's `speed`/`course`. Elements are matched by local name, so any
/// namespace prefix (or none) works. `extensions` are skipped whatever
/// their depth; waypoints are collected when the options ask for them;
/// route points are counted, not decoded. A point without a time is still
/// a fix (with `time == nil`); a point without a readable `lat`/`lon` is a
/// diagnostic. XML errors are diagnostics with libxml2's message and line;
/// the parser runs in recovery mode so one error does not lose the rest.
public final class GPXDecoder: FeedDecoder {
    private let options: FeedDecodingOptions
    private var context: xmlParserCtxtPtr?
    private var prefix: [UInt8] = []
    private var finished = false
    var names: GPXNames?
    var batch = FeedBatch()
    /// Route points, waypoints (when not collected) and suppressed XML errors.
    public internal(set) var statistics = FeedStatistics()
    var depth = 0
    var point: GPXPoint?
    var pointDepth = 0
    var extensionsDepth = 0
    var leaf = GPXLeaf.none
    var text: [UInt8] = []
    var reportedErrors = 0

    /// libxml2 errors reported one by one before the rest are only counted.
    static let maximumReportedErrors = 100

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        self.options = options
        text.reserveCapacity(64)
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    /// Always ``FeedFormat/gpx``.
    public var format: FeedFormat? { .gpx }

    /// Whether waypoints go into the batch.
    var collectsWaypoints: Bool { options.collectWaypoints }

    /// The parser's current line, for diagnostics.
    var currentLocation: FeedLocation {
        guard let context, let input = context.pointee.input else { return FeedLocation(line: 0, byteOffset: -1) }
        return FeedLocation(line: Int(input.pointee.line), byteOffset: -1)
    }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        guard !finished, !chunk.isEmpty else { return }
        swap(&self.batch, &batch)
        defer { swap(&self.batch, &batch) }
        if context == nil {
            prefix.append(contentsOf: chunk.bindMemory(to: UInt8.self))
            guard prefix.count >= 4 else { return }
            let held = prefix
            prefix = []
            held.withUnsafeBytes { start($0) }
            return
        }
        parse(chunk, terminate: false)
    }

    /// Ends the input: lets libxml2 report an unclosed document.
    public func finish(into batch: inout FeedBatch) {
        guard !finished else { return }
        swap(&self.batch, &batch)
        defer { swap(&self.batch, &batch) }
        if context == nil {
            let held = prefix
            prefix = []
            guard !held.isEmpty else {
                self.batch.diagnostics.append(FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "empty input: no GPX document"))
                finished = true
                return
            }
            held.withUnsafeBytes { start($0) }
        }
        parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        finished = true
    }

    /// Creates the push parser with the first bytes (libxml2 detects the
    /// encoding from them) and parses the rest.
    private func start(_ bytes: UnsafeRawBufferPointer) {
        var handler = GPXSAXHandler.make()
        let head = min(4, bytes.count)
        let userData = Unmanaged.passUnretained(self).toOpaque()
        context = bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: head) {
            xmlCreatePushParserCtxt(&handler, userData, $0, Int32(head), nil)
        }
        guard let context else {
            batch.diagnostics.append(FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "libxml2 could not create a parser"))
            finished = true
            return
        }
        let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue)
        xmlCtxtUseOptions(context, parseOptions)
        names = GPXNames(dictionary: context.pointee.dict)
        parse(UnsafeRawBufferPointer(rebasing: bytes[head...]), terminate: false)
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
        guard let context else { return }
        var rest = bytes
        repeat {
            let piece = min(rest.count, 1 << 30)
            let isLast = piece == rest.count
            let pointer = rest.baseAddress?.assumingMemoryBound(to: CChar.self)
            xmlParseChunk(context, pointer, Int32(piece), terminate && isLast ? 1 : 0)
            rest = UnsafeRawBufferPointer(rebasing: rest[piece...])
        } while !rest.isEmpty
    }
}
