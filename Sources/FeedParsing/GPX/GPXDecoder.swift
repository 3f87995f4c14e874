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
/// A byte that is not valid in the document's encoding is one diagnostic
/// and reads as U+FFFD (``XMLInputText``): the points around it are kept.
///
/// The SAX callbacks work on a ``GPXParseState`` reached through the
/// user-data pointer: a plain struct behind an unsafe pointer, so the
/// per-element path has no retain/release and no dynamic exclusivity check.
public final class GPXDecoder: FeedDecoder {
    private var context: xmlParserCtxtPtr?
    private var input = XMLInputText()
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
        input.close()
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
        input.append(chunk.bindMemory(to: UInt8.self)) { parse($0, problems: $1) }
    }

    /// Ends the input: lets libxml2 report an unclosed document.
    public func finish(into batch: inout FeedBatch) {
        guard !finished else { return }
        swap(&state.pointee.batch, &batch)
        defer { swap(&state.pointee.batch, &batch) }
        finished = true
        input.finish { parse($0, problems: $1) }
        if input.unreportedProblems > 0 {
            state.pointee.statistics.ignore("further encoding errors", count: input.unreportedProblems)
        }
        guard context != nil else {
            state.pointee.batch.diagnostics.append(
                FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "empty input: no GPX document"))
            return
        }
        parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
    }

    /// Hands one piece of UTF-8 text to libxml2, then reports the piece's
    /// encoding problems (so that every diagnostic comes in an order that
    /// depends on the pieces only, not on the reads).
    private func parse(_ piece: UnsafeRawBufferPointer, problems: [FeedDiagnostic]) {
        if !piece.isEmpty { parse(piece, terminate: false) }
        state.pointee.batch.diagnostics.append(contentsOf: problems)
    }

    /// Hands one piece of UTF-8 text to libxml2, creating the push parser
    /// with the first one. Errors libxml2 raises outside the parser's own
    /// handler (its encoding and I/O layers) reach the same diagnostics, never stderr.
    private func parse(_ piece: UnsafeRawBufferPointer, terminate: Bool) {
        var handler = GPXSAXHandler.make()
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(state), handler.serror)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        guard let context else {
            start(piece, handler: &handler)
            return
        }
        xmlParseChunk(context, piece.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(piece.count), terminate ? 1 : 0)
    }

    /// Creates the push parser with the first bytes and parses the rest.
    /// The text is UTF-8 whatever the document declares (``XMLInputText``
    /// converted it), so libxml2 ignores the declared encoding.
    private func start(_ bytes: UnsafeRawBufferPointer, handler: inout xmlSAXHandler) {
        let head = min(4, bytes.count)
        context = bytes.baseAddress.map { base in
            base.withMemoryRebound(to: CChar.self, capacity: head) {
                xmlCreatePushParserCtxt(&handler, UnsafeMutableRawPointer(state), $0, Int32(head), nil)
            }
        }
        guard let context else {
            state.pointee.batch.diagnostics.append(
                FeedDiagnostic(.badXML, at: FeedLocation(line: 1, byteOffset: 0), "libxml2 could not create a parser"))
            finished = true
            return
        }
        let parseOptions = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue
                | XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(context, parseOptions)
        state.pointee.names = GPXNames(dictionary: context.pointee.dict)
        state.pointee.context = context
        let rest = UnsafeRawBufferPointer(rebasing: bytes[head...])
        xmlParseChunk(context, rest.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(rest.count), 0)
    }
}
