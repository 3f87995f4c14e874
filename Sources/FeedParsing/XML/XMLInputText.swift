import Glibc

/// An XML document (GPX, KML)'s bytes as the text libxml2 is given: valid UTF-8 in
/// pieces that start at fixed 64 KiB offsets.
///
/// libxml2 stops at the first byte that is not valid in the document's
/// encoding (half a file lost, and its own message on stderr) and, in push
/// mode, how much it loses depends on where the reads happened to cut the
/// input. So the encoding is Repeat's business: the document's encoding is
/// read from its byte-order mark or XML declaration, converted to UTF-8 here
/// (UTF-8 is validated, any other encoding goes through iconv), and every
/// byte that is not valid becomes U+FFFD with one located diagnostic. The
/// pieces libxml2 sees are the same whatever the reads' sizes, so a file
/// and a pipe of the same bytes decode alike. iconv is given fixed blocks
/// of the input too: with a stateful encoding (UTF-7, ISO-2022), what it
/// makes of a bad byte depends on where its calls end.
struct XMLInputText {
    /// The size of the pieces handed on (the last one may be shorter).
    static let pieceSize = 1 << 16
    /// Encoding problems reported one by one before the rest are only counted.
    static let maximumReportedProblems = 100
    /// The most bytes held back while looking for the XML declaration's end.
    static let maximumDeclaration = 1024

    private enum Source {
        case undecided
        case utf8
        case converted(iconv_t, name: String, unitSize: Int)
    }

    private var source = Source.undecided
    /// The first bytes, held until the encoding is known.
    private var head: [UInt8] = []
    /// Input bytes of an unfinished character, carried to the next chunk.
    private var carry: [UInt8] = []
    /// Input not yet given to iconv, which takes it in blocks of
    /// ``pieceSize`` bytes at fixed offsets: less than a block.
    private var unconverted: [UInt8] = []
    /// UTF-8 text not yet handed on (less than a piece).
    private var staged: [UInt8] = []
    /// The output line the next byte is on.
    private var line = 1
    /// Input bytes consumed so far (the offset of `carry`'s first byte).
    private var inputOffset = 0
    private var reportedProblems = 0
    /// Problems beyond ``maximumReportedProblems``, only counted.
    private(set) var unreportedProblems = 0
    /// Problems not yet handed on, with the output offset of their U+FFFD:
    /// each goes with the piece that holds it, so that the order of all
    /// diagnostics does not depend on how the input was cut.
    private var pending: [(offset: Int, diagnostic: FeedDiagnostic)] = []
    /// Output bytes handed on so far.
    private var handed = 0

    /// What is handed on: a piece of text and the problems found in it.
    typealias Piece = (UnsafeRawBufferPointer, [FeedDiagnostic]) -> Void

    init() { staged.reserveCapacity(Self.pieceSize) }

    /// Releases the converter.
    func close() {
        if case .converted(let converter, _, _) = source { iconv_close(converter) }
    }

    /// Converts `chunk`, handing on each whole piece of text to `piece`.
    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, _ piece: Piece) {
        guard case .undecided = source else {
            convert(chunk, final: false, piece)
            return
        }
        head.append(contentsOf: chunk)
        guard decideEncoding(final: false) else { return }
        let held = head
        head = []
        held.withUnsafeBufferPointer { convert($0, final: false, piece) }
    }

    /// Ends the input: an unfinished character is a problem, and the last
    /// (short) piece is handed on.
    mutating func finish(_ piece: Piece) {
        if case .undecided = source {
            _ = decideEncoding(final: true)
            let held = head
            head = []
            held.withUnsafeBufferPointer { convert($0, final: true, piece) }
        } else {
            convert(UnsafeBufferPointer(start: nil, count: 0), final: true, piece)
        }
        let last = staged
        staged.removeAll()
        last.withUnsafeBytes { hand($0, piece) }
        if !pending.isEmpty { piece(UnsafeRawBufferPointer(start: nil, count: 0), pending.map(\.diagnostic)) }
        pending.removeAll()
    }

    // MARK: The encoding

    /// Decides the encoding from a byte-order mark, the first characters or
    /// the XML declaration; `false` while more bytes are needed.
    private mutating func decideEncoding(final: Bool) -> Bool {
        let b = head
        if !final, b.count < 4 { return false }
        if b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0x3C, 0x00, 0x3F, 0x00]) {
            return use("UTF-16LE", unitSize: 2, skipping: b[0] == 0xFF ? 2 : 0)
        }
        if b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0x00, 0x3C, 0x00, 0x3F]) {
            return use("UTF-16BE", unitSize: 2, skipping: b[0] == 0xFE ? 2 : 0)
        }
        let bom = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = b[bom...]
        let declarationStart = Array("<?xml".utf8)
        // Wait for a whole declaration, if the document opens with one.
        if !final, text.count < declarationStart.count, declarationStart.starts(with: text) { return false }
        guard text.starts(with: declarationStart) else {
            source = .utf8
            return true
        }
        // Only within the first bytes, whatever is held: the decision must
        // not depend on how much the first read brought.
        guard let end = Self.declarationEnd(text.prefix(Self.maximumDeclaration)) else {
            if !final, text.count < Self.maximumDeclaration { return false }
            source = .utf8
            return true
        }
        guard let name = Self.declaredEncoding(text[text.startIndex..<end]) else {
            source = .utf8
            return true
        }
        switch name.uppercased() {
        case "UTF-8", "UTF8", "US-ASCII", "ASCII":
            source = .utf8
        case let upper where upper.hasPrefix("UTF-16") || upper.hasPrefix("UCS-2") || upper.hasPrefix("UTF-32"):
            // The bytes are ASCII-compatible, so the declaration is wrong:
            // read them as UTF-8, as libxml2 does.
            source = .utf8
        default:
            if !use(name, unitSize: 1, skipping: 0) {
                report(
                    line: 1, offset: 0,
                    "the document declares encoding '\(name.terminalSafe)', which this system cannot read; read as UTF-8")
                source = .utf8
            }
        }
        return true
    }

    /// Converts from `name` with iconv, dropping a byte-order mark; `false`
    /// when iconv does not know the encoding.
    private mutating func use(_ name: String, unitSize: Int, skipping mark: Int) -> Bool {
        let converter = iconv_open("UTF-8", name)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return false }
        source = .converted(converter, name: name, unitSize: unitSize)
        head.removeFirst(mark)
        inputOffset += mark
        return true
    }

    /// The index just past `?>` in a declaration, if it is there.
    private static func declarationEnd(_ text: ArraySlice<UInt8>) -> Int? {
        var i = text.startIndex
        while i + 1 < text.endIndex {
            if text[i] == 0x3F, text[i + 1] == 0x3E { return i + 2 }
            i += 1
        }
        return nil
    }

    /// The value of `encoding="…"` in an XML declaration.
    private static func declaredEncoding(_ declaration: ArraySlice<UInt8>) -> String? {
        let key = Array("encoding".utf8)
        guard let at = declaration.indices.first(where: { declaration[$0...].starts(with: key) }) else { return nil }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var rest = declaration[(at + key.count)...].drop(while: isBlank)
        guard rest.first == UInt8(ascii: "=") else { return nil }
        rest = rest.dropFirst().drop(while: isBlank)
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        guard !value.isEmpty, value.count < 64, value.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    // MARK: Conversion

    private mutating func convert(
        _ chunk: UnsafeBufferPointer<UInt8>, final: Bool, _ piece: Piece
    ) {
        switch source {
        case .undecided: preconditionFailure("the encoding is decided before conversion")
        case .utf8: validate(chunk, final: final, piece)
        case .converted(let converter, let name, let unitSize):
            unconverted.append(contentsOf: chunk)
            var start = 0
            while unconverted.count - start >= Self.pieceSize || final {
                let end = min(start + Self.pieceSize, unconverted.count)
                let last = final && end == unconverted.count
                unconverted.withUnsafeBufferPointer { input in
                    let block = UnsafeBufferPointer(rebasing: input[start..<end])
                    iconvert(block, converter: converter, name: name, unitSize: unitSize, final: last, piece)
                }
                start = end
                if last { break }
            }
            unconverted.removeFirst(start)
        }
    }

    /// Hands on the valid UTF-8 of `chunk`, replacing each invalid sequence.
    private mutating func validate(
        _ chunk: UnsafeBufferPointer<UInt8>, final: Bool, _ piece: Piece
    ) {
        var input = chunk
        if !carry.isEmpty {
            // An unfinished character from the last chunk: complete it with
            // this chunk's first bytes.
            let joined = carry + input.prefix(4 - carry.count)
            let taken: Int = joined.withUnsafeBufferPointer { buffer in
                switch UTF8Sequence.check(buffer, at: 0) {
                case .valid(let length):
                    emit(UnsafeBufferPointer(rebasing: buffer[0..<length]), piece)
                    return length
                case .invalid(let length):
                    replace(UnsafeBufferPointer(rebasing: buffer[0..<length]), piece)
                    return length
                case .incomplete:
                    guard final else { return -1 }
                    replace(buffer, piece)
                    return buffer.count
                }
            }
            if taken < 0 {
                carry = joined
                return
            }
            let fromChunk = taken - carry.count
            inputOffset += taken
            carry.removeAll()
            input = UnsafeBufferPointer(rebasing: input[fromChunk...])
        }
        guard let base = input.baseAddress else { return }
        let count = input.count
        var runStart = 0
        var i = 0
        while i < count {
            let ascii = Self.asciiRun(base, from: i, to: count)
            line += ascii.newlines
            i = ascii.end
            guard i < count else { break }
            let byte = base[i]
            if byte < 0x80 {
                if byte == 0x0A { line += 1 }
                i += 1
                continue
            }
            switch UTF8Sequence.check(input, at: i) {
            case .valid(let length):
                i += length
            case .invalid(let length):
                emit(UnsafeBufferPointer(rebasing: input[runStart..<i]), piece)
                inputOffset += i - runStart
                replace(UnsafeBufferPointer(rebasing: input[i..<i + length]), piece)
                inputOffset += length
                i += length
                runStart = i
            case .incomplete:
                emit(UnsafeBufferPointer(rebasing: input[runStart..<i]), piece)
                inputOffset += i - runStart
                if final {
                    replace(UnsafeBufferPointer(rebasing: input[i...]), piece)
                    inputOffset += count - i
                } else {
                    carry = Array(input[i...])
                }
                return
            }
        }
        emit(UnsafeBufferPointer(rebasing: input[runStart..<count]), piece)
        inputOffset += count - runStart
    }

    /// Where the ASCII bytes from `start` end (to within a word: the byte
    /// there may be ASCII too), and the newlines among them; 32 bytes a step.
    @inline(__always)
    private static func asciiRun(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (end: Int, newlines: Int) {
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func newlines(_ word: UInt64) -> Int {
            (~((word ^ 0x0A0A_0A0A_0A0A_0A0A) &+ 0x7F7F_7F7F_7F7F_7F7F) & high).nonzeroBitCount
        }
        let raw = UnsafeRawPointer(base)
        var i = start
        var count = 0
        while i &+ 32 <= end {
            let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self)
            let d = raw.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self)
            guard (a | b | c | d) & high == 0 else { break }
            count &+= newlines(a) &+ newlines(b) &+ newlines(c) &+ newlines(d)
            i &+= 32
        }
        while i &+ 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard word & high == 0 else { break }
            count &+= newlines(word)
            i &+= 8
        }
        return (i, count)
    }

    /// Converts `chunk` from another encoding with iconv, replacing each
    /// unit it cannot convert.
    private mutating func iconvert(
        _ chunk: UnsafeBufferPointer<UInt8>, converter: iconv_t, name: String, unitSize: Int, final: Bool,
        _ piece: Piece
    ) {
        var input = carry
        input.append(contentsOf: chunk)
        carry.removeAll()
        var output = [UInt8](repeating: 0, count: 4 * input.count + 16)
        var consumed = 0
        while consumed < input.count {
            var inputLeft = input.count - consumed
            var outputLeft = output.count
            let (result, failure) = input.withUnsafeMutableBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    var from: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(source.baseAddress! + consumed)
                        .assumingMemoryBound(to: CChar.self)
                    var to: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)
                        .assumingMemoryBound(to: CChar.self)
                    let result = iconv(converter, &from, &inputLeft, &to, &outputLeft)
                    return (result, errno)
                }
            }
            let produced = output.count - outputLeft
            let taken = input.count - consumed - inputLeft
            output.withUnsafeBufferPointer { converted in
                let text = UnsafeBufferPointer(rebasing: converted[0..<produced])
                emit(text, piece)
                for byte in text where byte == 0x0A { line += 1 }
            }
            consumed += taken
            inputOffset += taken
            if result != -1 { break }
            if failure == E2BIG { continue }
            if failure == EINVAL, !final {
                carry = Array(input[consumed...])
                return
            }
            // EILSEQ, or an unfinished character at the end: one unit
            // replaced, and the converter back in its initial state (glibc's
            // UTF-7 otherwise stays in a broken base64 run, and every byte
            // after the bad one is bad too).
            let bad = min(unitSize, input.count - consumed)
            input.withUnsafeBufferPointer { source in
                replace(UnsafeBufferPointer(rebasing: source[consumed..<consumed + bad]), piece, encoding: name)
            }
            consumed += bad
            inputOffset += bad
            _ = iconv(converter, nil, nil, nil, nil)
        }
    }

    /// Hands on valid text: into the staged piece, whole pieces straight from the input.
    private mutating func emit(_ text: UnsafeBufferPointer<UInt8>, _ piece: Piece) {
        var rest = text
        if !staged.isEmpty {
            let taken = min(rest.count, Self.pieceSize - staged.count)
            staged.append(contentsOf: rest.prefix(taken))
            rest = UnsafeBufferPointer(rebasing: rest[taken...])
            guard staged.count == Self.pieceSize else { return }
            let full = staged
            staged.removeAll(keepingCapacity: true)
            full.withUnsafeBytes { hand($0, piece) }
        }
        while rest.count >= Self.pieceSize {
            hand(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: rest[0..<Self.pieceSize])), piece)
            rest = UnsafeBufferPointer(rebasing: rest[Self.pieceSize...])
        }
        staged.append(contentsOf: rest)
    }

    /// Hands on one piece with the problems found in it.
    private mutating func hand(_ bytes: UnsafeRawBufferPointer, _ piece: Piece) {
        guard !bytes.isEmpty else { return }
        handed += bytes.count
        let inPiece = pending.prefix { $0.offset < handed }.count
        let found = pending.prefix(inPiece).map(\.diagnostic)
        pending.removeFirst(inPiece)
        piece(bytes, found)
    }

    /// Hands on U+FFFD in place of `bytes`, with a diagnostic.
    private mutating func replace(
        _ bytes: UnsafeBufferPointer<UInt8>, _ piece: Piece, encoding: String = "UTF-8"
    ) {
        let shown = bytes.prefix(4).map { "0x" + ($0 < 0x10 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(
            separator: " ")
        let noun = bytes.count == 1 ? "byte \(shown) is" : "bytes \(shown) are"
        report(line: line, offset: inputOffset, "\(noun) not \(encoding.terminalSafe); read as U+FFFD (\u{FFFD})")
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        replacement.withUnsafeBufferPointer { emit($0, piece) }
    }

    private mutating func report(line: Int, offset: Int, _ message: String) {
        reportedProblems += 1
        guard reportedProblems <= Self.maximumReportedProblems else {
            unreportedProblems += 1
            return
        }
        pending.append(
            (handed + staged.count, FeedDiagnostic(.badXML, at: FeedLocation(line: line, byteOffset: offset), message)))
    }
}

/// What the bytes at an index hold: one whole UTF-8 character, the start of
/// one that the buffer cuts short, or an invalid sequence (its maximal
/// subpart, replaced by one U+FFFD as Unicode recommends).
enum UTF8Sequence: Equatable {
    case valid(Int)
    case invalid(Int)
    case incomplete

    /// Checks the sequence starting at `i` (Unicode Table 3-7).
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> UTF8Sequence {
        let lead = bytes[i]
        if lead < 0x80 { return .valid(1) }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return .invalid(1)
        }
        for k in 1..<length {
            guard i + k < bytes.count else { return .incomplete }
            let byte = bytes[i + k]
            guard byte >= low, byte <= high else { return .invalid(k) }
            (low, high) = (0x80, 0xBF)
        }
        return .valid(length)
    }
}
