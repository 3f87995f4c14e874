import CLibXML2
import GeoCore

/// Decodes GPX 1.0 and 1.1 through libxml2's SAX2 push parser
/// (`xmlCreatePushParserCtxt` + `xmlParseChunk`): chunks in, fixes out,
/// constant memory.
///
/// Track points (`trkpt`) are the feed, with `ele`, `time`, `hdop` and
/// GPX 1.0's `speed`/`course`. Elements are matched by local name, so any
/// namespace prefix (or none) works. A point's `extensions` are skipped
/// except for `speed` and `course` at any depth inside them (Garmin's
/// TrackPointExtension v2, which ``GPXEncoder`` writes); waypoints are collected when the options ask for them;
/// route points are counted, not decoded. A point without a time is still
/// a fix (with `time == nil`); a point without a readable `lat`/`lon` is a
/// diagnostic. XML errors are diagnostics with libxml2's message and line;
/// the parser runs in recovery mode so one error does not lose the rest.
///
/// The SAX callbacks work on a ``GPXParseState`` reached through the
/// user-data pointer: a plain struct behind an unsafe pointer, so the
/// per-element path has no retain/release and no dynamic exclusivity check.
public final class GPXDecoder: FeedDecoder {
    private var context: xmlParserCtxtPtr?
    private var prefix: [UInt8] = []
    private var finished = false
    private let state: UnsafeMutablePointer<GPXParseState>

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        state = .allocate(capacity: 1)
        state.initialize(
            to: GPXParseState(collectsWaypoints: options.collectWaypoints, collectsRoutePoints: options.collectRoutePoints))
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Always ``FeedFormat/gpx``.
    public var format: FeedFormat? { .gpx }

    /// Route points, waypoints (when not collected) and suppressed XML errors.
    public var statistics: FeedStatistics { state.pointee.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        guard !finished, !chunk.isEmpty else { return }
        swap(&state.pointee.batch, &batch)
        defer { swap(&state.pointee.batch, &batch) }
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
        swap(&state.pointee.batch, &batch)
        defer { swap(&state.pointee.batch, &batch) }
        finished = true
        if context == nil {
            let held = prefix
            prefix = []
            guard !held.isEmpty else {
                state.pointee.batch.diagnostics.append(
                    FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "empty input: no GPX document"))
                return
            }
            held.withUnsafeBytes { start($0) }
        }
        parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
    }

    /// Creates the push parser with the first bytes (libxml2 detects the
    /// encoding from them) and parses the rest.
    private func start(_ bytes: UnsafeRawBufferPointer) {
        var handler = GPXSAXHandler.make()
        let head = min(4, bytes.count)
        context = bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: head) {
            xmlCreatePushParserCtxt(&handler, UnsafeMutableRawPointer(state), $0, Int32(head), nil)
        }
        guard let context else {
            state.pointee.batch.diagnostics.append(
                FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "libxml2 could not create a parser"))
            finished = true
            return
        }
        let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue)
        xmlCtxtUseOptions(context, parseOptions)
        state.pointee.names = GPXNames(dictionary: context.pointee.dict)
        state.pointee.context = context
        parse(UnsafeRawBufferPointer(rebasing: bytes[head...]), terminate: false)
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
        guard let context else { return }
        var rest = bytes
        repeat {
            // 64 KiB pieces keep libxml2's input buffer small and in cache.
            let piece = min(rest.count, 1 << 16)
            let isLast = piece == rest.count
            let pointer = rest.baseAddress?.assumingMemoryBound(to: CChar.self)
            xmlParseChunk(context, pointer, Int32(piece), terminate && isLast ? 1 : 0)
            rest = UnsafeRawBufferPointer(rebasing: rest[piece...])
        } while !rest.isEmpty
    }
}
