/// What the NMEA framer hands on: whole sentences and the bytes between
/// them that are not sentences.
protocol NMEAFrameHandler {
    /// A complete sentence from `$`/`!` up to (not including) its line end.
    mutating func sentence(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation)
    /// A run of bytes that belongs to no sentence (noise, free text, a collided fragment).
    mutating func skipped(_ code: FeedDiagnostic.Code, length: Int, at location: FeedLocation)
    /// A sentence longer than the framer's limit, dropped up to the next line end or `$`.
    mutating func overlongSentence(limit: Int, at location: FeedLocation)
    /// A `#` comment line (gpsd's log convention).
    mutating func comment()
}

/// Splits a byte stream into NMEA sentences, whatever the chunking.
///
/// A single-step framer in the manner of swift-nio's
/// `SingleStepByteToMessageDecoder`: it keeps only the bytes of the
/// sentence in progress (bounded by `maximumLength`), so noise cannot
/// grow memory. Rules:
/// - a sentence starts at `$` or `!` and ends at CR, LF or CRLF;
/// - a new `$`/`!` before the line end cuts the previous sentence (a
///   packet collision), which is reported as truncated — except a lone
///   `$`, so `$$GPGGA` is read as `$GPGGA`;
/// - a sentence still open at the end of input is handed on only if it
///   ends in a `*hh` checksum (so a truncated last line cannot yield a
///   shortened field), else reported as truncated;
/// - `#` at the start of a line begins a comment; other bytes outside
///   sentences (binary noise, free text) are reported as one garbage run
///   per line; blanks between sentences are ignored.
struct NMEAFramer {
    private enum Mode {
        case between
        case sentence
        case comment
        case discard
    }

    let maximumLength: Int
    private var mode = Mode.between
    private var carry: [UInt8] = []
    private var offset = 0
    private var line = 1
    private var previousWasCR = false
    private var atLineStart = true
    private var sentenceLocation = FeedLocation(line: 1, byteOffset: 0)
    private var garbageLocation: FeedLocation?
    private var garbageLength = 0

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
        carry.reserveCapacity(256)
    }

    /// Frames the next chunk.
    mutating func feed<Handler: NMEAFrameHandler>(_ bytes: UnsafeBufferPointer<UInt8>, to handler: inout Handler) {
        let count = bytes.count
        var i = 0
        while i < count {
            switch mode {
            case .sentence:
                let start = carry.isEmpty && sentenceLocation.byteOffset >= offset ? sentenceLocation.byteOffset - offset : 0
                let j = Self.sentenceEnd(bytes, from: i)
                if j - start + carry.count > maximumLength {
                    handler.overlongSentence(limit: maximumLength, at: sentenceLocation)
                    carry.removeAll(keepingCapacity: true)
                    mode = .discard
                    i = j
                    continue
                }
                guard j < count else {
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
                    i = count
                    continue
                }
                let b = bytes[j]
                let isTerminator = b == 0x0A || b == 0x0D
                if carry.isEmpty {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<j])
                    endSentence(slice, terminated: isTerminator, to: &handler)
                } else {
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<j]))
                    let whole = carry
                    carry.removeAll(keepingCapacity: true)
                    whole.withUnsafeBufferPointer { endSentence($0, terminated: isTerminator, to: &handler) }
                }
                guard isTerminator else {
                    beginSentence(at: j)
                    i = j + 1
                    continue
                }
                lineEnd(b)
                // The usual `\r\n$` (or `\n$`) between two sentences is taken
                // in one step, as the between-sentences state would take it
                // byte by byte.
                var next = j + 1
                if b == 0x0D, next < count, bytes[next] == 0x0A {
                    lineEnd(0x0A)
                    next += 1
                }
                if next < count, bytes[next] == 0x24 || bytes[next] == 0x21 {
                    beginSentence(at: next)
                    i = next + 1
                } else {
                    mode = .between
                    i = next
                }
            case .between:
                let b = bytes[i]
                switch b {
                case 0x0A, 0x0D:
                    endGarbage(to: &handler)
                    lineEnd(b)
                case 0x24, 0x21:
                    endGarbage(to: &handler)
                    beginSentence(at: i)
                case 0x23 where atLineStart:
                    mode = .comment
                    handler.comment()
                case 0x20, 0x09:
                    previousWasCR = false
                default:
                    if garbageLocation == nil {
                        garbageLocation = FeedLocation(line: line, byteOffset: offset + i)
                    }
                    garbageLength += 1
                    atLineStart = false
                    previousWasCR = false
                }
                i += 1
            case .comment, .discard:
                let b = bytes[i]
                if b == 0x0A || b == 0x0D {
                    mode = .between
                    lineEnd(b)
                } else if mode == .discard, b == 0x24 || b == 0x21 {
                    beginSentence(at: i)
                } else {
                    previousWasCR = false
                }
                i += 1
            }
        }
        if mode == .sentence, carry.isEmpty, sentenceLocation.byteOffset >= offset {
            // The sentence began at this chunk's last bytes and was not scanned yet.
            carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(sentenceLocation.byteOffset - offset)..<count]))
        }
        offset += count
    }

    /// Ends the input: hands on or reports what is still open.
    mutating func finish<Handler: NMEAFrameHandler>(to handler: inout Handler) {
        if mode == .sentence {
            let whole = carry
            carry.removeAll()
            whole.withUnsafeBufferPointer { endSentence($0, terminated: false, to: &handler) }
        }
        endGarbage(to: &handler)
        mode = .between
    }

    /// The index of the first LF, CR, `$` or `!` at or after `start`
    /// (`bytes.count` if none). All four are ≤ 0x24 and sentence bytes
    /// mostly are not, so eight bytes at a time are skipped when none of
    /// them is below 0x25 (the word-at-a-time "has less than" test, which
    /// never misses a byte; a flagged word is finished byte by byte).
    @inline(__always)
    static func sentenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return count }
        var j = start
        while j < count {
            if j + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                let flagged = (word &- 0x2525_2525_2525_2525) & ~word & 0x8080_8080_8080_8080
                if flagged == 0 {
                    j += 8
                    continue
                }
                j += flagged.trailingZeroBitCount >> 3
            }
            let b = bytes[j]
            if b <= 0x24, b == 0x0A || b == 0x0D || b == 0x24 || b == 0x21 { return j }
            j += 1
        }
        return count
    }

    private mutating func beginSentence(at index: Int) {
        mode = .sentence
        sentenceLocation = FeedLocation(line: line, byteOffset: offset + index)
        atLineStart = false
        previousWasCR = false
    }

    private mutating func endSentence<Handler: NMEAFrameHandler>(
        _ bytes: UnsafeBufferPointer<UInt8>, terminated: Bool, to handler: inout Handler
    ) {
        if bytes.count <= 1 { return }  // a lone `$`: the first of `$$`, or an empty line start
        if terminated || Self.endsWithChecksum(bytes) {
            handler.sentence(bytes, at: sentenceLocation)
        } else {
            handler.skipped(.truncated, length: bytes.count, at: sentenceLocation)
        }
    }

    private static func endsWithChecksum(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 { end -= 1 }
        guard end >= 3, bytes[end - 3] == 0x2A else { return false }
        return bytes[end - 2].isHexDigit && bytes[end - 1].isHexDigit
    }

    private mutating func lineEnd(_ byte: UInt8) {
        if byte == 0x0A, previousWasCR {
            previousWasCR = false
        } else {
            line += 1
            previousWasCR = byte == 0x0D
        }
        atLineStart = true
    }

    private mutating func endGarbage<Handler: NMEAFrameHandler>(to handler: inout Handler) {
        guard let location = garbageLocation else { return }
        handler.skipped(.garbage, length: garbageLength, at: location)
        garbageLocation = nil
        garbageLength = 0
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit (either case).
    var isHexDigit: Bool {
        (self &- 0x30) < 10 || (self | 0x20) &- 0x61 < 6
    }

    /// The value of an ASCII hexadecimal digit.
    var hexValue: UInt8 {
        (self &- 0x30) < 10 ? self &- 0x30 : (self | 0x20) &- 0x61 &+ 10
    }
}
