import CLibXML2
import GeoCore

/// What the SAX callbacks of one XML feed format read and write: the
/// state a ``XMLPushParser`` hands libxml2 as its user data.
protocol XMLParseState {
    /// The format's name in a message (`GPX`).
    static var documentName: String { get }
    /// The callbacks, which reach this state through the user-data pointer.
    static func saxHandler() -> xmlSAXHandler
    /// What the parse added since the decoder's last call.
    var batch: FeedBatch { get set }
    /// Records read and deliberately ignored.
    var statistics: FeedStatistics { get set }
    /// XML errors reported so far (after ``maximumReportedXMLErrors`` they are only counted).
    var reportedErrors: Int { get set }
    /// Called once the parser exists: interns the element names in its dictionary.
    mutating func begin(_ context: xmlParserCtxtPtr)
}

/// `name` as the pointer the parser's `dictionary` hands SAX callbacks for
/// it, so that an element is told by one pointer comparison.
func internedName(_ name: StaticString, in dictionary: OpaquePointer?) -> UnsafePointer<xmlChar>? {
    xmlDictLookup(dictionary, name.utf8Start, Int32(name.utf8CodeUnitCount))
}

/// libxml2 errors reported one by one before the rest are only counted.
let maximumReportedXMLErrors = 100

extension XMLParseState {
    /// Reports an error libxml2 raised (warnings are not): one located
    /// diagnostic, or a count once there have been many.
    mutating func xmlError(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        reportedErrors += 1
        guard reportedErrors <= maximumReportedXMLErrors else {
            statistics.ignore("further XML errors")
            return
        }
        // One line: libxml2 puts some details (the bytes of an encoding error) on a second.
        let message =
            error.message.map { String(cString: $0).split(whereSeparator: \.isNewline).joined(separator: " ") }
            ?? "XML error \(error.code)"
        let location = FeedLocation(line: Int(error.line), byteOffset: -1)
        batch.diagnostics.append(FeedDiagnostic(.badXML, at: location, "not well-formed XML: \(message)"))
    }
}

/// libxml2's SAX2 push parser (`xmlCreatePushParserCtxt` +
/// `xmlParseChunk`) over a document given in chunks of any size: the
/// shared body of the XML feed decoders.
///
/// The bytes go through ``XMLInputText`` first, so libxml2 always sees
/// valid UTF-8 in pieces that do not depend on the reads. The parser runs
/// without network access, in recovery mode (one error does not lose the
/// rest) and with libxml2's size limits. The callbacks work on a `State`
/// behind an unsafe pointer, so the per-element path has no retain/release
/// and no dynamic exclusivity check.
final class XMLPushParser<State: XMLParseState> {
    /// The state the callbacks work on (owned here, which outlives the parser).
    let state: UnsafeMutablePointer<State>
    private var context: xmlParserCtxtPtr?
    private var input = XMLInputText()
    private var finished = false

    /// Creates a parser whose callbacks start from `initial`.
    init(_ initial: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
        input.close()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next chunk, appending what it completed to `batch`.
    func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        guard !finished, !chunk.isEmpty else { return }
        swap(&state.pointee.batch, &batch)
        defer { swap(&state.pointee.batch, &batch) }
        input.append(chunk.bindMemory(to: UInt8.self)) { parse($0, problems: $1) }
    }

    /// Ends the input: lets libxml2 report an unclosed document.
    func finish(into batch: inout FeedBatch) {
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
                FeedDiagnostic(
                    .badXML, at: FeedLocation(line: 1, byteOffset: 0), "empty input: no \(State.documentName) document"))
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
        var handler = State.saxHandler()
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
        state.pointee.begin(context)
        let rest = UnsafeRawBufferPointer(rebasing: bytes[head...])
        xmlParseChunk(context, rest.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(rest.count), 0)
    }
}
