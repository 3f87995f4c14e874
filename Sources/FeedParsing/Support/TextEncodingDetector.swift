/// The encodings a text feed may arrive in, told apart by a byte-order mark.
enum TextEncoding: Equatable {
    case utf8
    case utf16LittleEndian
    case utf16BigEndian
}

/// Turns a byte stream that may start with a byte-order mark (UTF-8,
/// UTF-16LE or UTF-16BE) into UTF-8 bytes, chunk by chunk.
///
/// GPSBabel's Windows exports write NMEA as UTF-16LE with a BOM. The line
/// decoders only see UTF-8; offsets they report are offsets in the UTF-8
/// text. Invalid UTF-16 (a lone surrogate) becomes U+FFFD.
struct TextTranscoder {
    private(set) var encoding: TextEncoding?
    private var prefix: [UInt8] = []
    private var pendingByte: UInt8?
    private var pendingHighSurrogate: UInt16?
    private var output: [UInt8] = []

    /// Passes the UTF-8 form of `chunk` to `body`: the chunk itself for
    /// UTF-8 input, a converted copy otherwise. The first bytes are held
    /// back until the byte-order mark is decided.
    mutating func transcode(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var input = chunk.bindMemory(to: UInt8.self)
        if encoding == nil {
            prefix.append(contentsOf: input)
            guard decideEncoding(final: false) else { return }
            let held = prefix
            prefix = []
            held.withUnsafeBytes { transcode($0, body) }
            return
        }
        if encoding == .utf8 {
            body(input)
            return
        }
        output.removeAll(keepingCapacity: true)
        if let first = pendingByte, !input.isEmpty {
            pendingByte = nil
            appendUnit(combine(first, input[0]))
            input = UnsafeBufferPointer(rebasing: input[1...])
        }
        var i = 0
        while i + 1 < input.count {
            appendUnit(combine(input[i], input[i + 1]))
            i += 2
        }
        if i < input.count { pendingByte = input[i] }
        output.withUnsafeBufferPointer(body)
    }

    /// Flushes held-back bytes at the end of the input.
    mutating func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if encoding == nil {
            _ = decideEncoding(final: true)
            let held = prefix
            prefix = []
            held.withUnsafeBytes { transcode($0, body) }
        }
        output.removeAll(keepingCapacity: true)
        if pendingHighSurrogate != nil || pendingByte != nil {
            appendScalar(0xFFFD)
            pendingHighSurrogate = nil
            pendingByte = nil
        }
        if !output.isEmpty { output.withUnsafeBufferPointer(body) }
    }

    /// Decides the encoding from the held-back prefix and drops the BOM;
    /// `false` while more bytes are needed.
    private mutating func decideEncoding(final: Bool) -> Bool {
        if prefix.count >= 2, prefix[0] == 0xFF, prefix[1] == 0xFE {
            encoding = .utf16LittleEndian
            prefix.removeFirst(2)
        } else if prefix.count >= 2, prefix[0] == 0xFE, prefix[1] == 0xFF {
            encoding = .utf16BigEndian
            prefix.removeFirst(2)
        } else if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF {
            encoding = .utf8
            prefix.removeFirst(3)
        } else if prefix.count >= 3 || final || !Self.couldStartBOM(prefix) {
            encoding = .utf8
        } else {
            return false
        }
        return true
    }

    private static func couldStartBOM(_ bytes: [UInt8]) -> Bool {
        let marks: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB, 0xBF]]
        return marks.contains { $0.starts(with: bytes) }
    }

    private func combine(_ a: UInt8, _ b: UInt8) -> UInt16 {
        encoding == .utf16BigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }

    private mutating func appendUnit(_ unit: UInt16) {
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if unit >= 0xDC00, unit <= 0xDFFF {
                appendScalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))
                return
            }
            appendScalar(0xFFFD)
        }
        switch unit {
        case 0xD800...0xDBFF: pendingHighSurrogate = unit
        case 0xDC00...0xDFFF: appendScalar(0xFFFD)
        default: appendScalar(UInt32(unit))
        }
    }

    private mutating func appendScalar(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

/// The start of a text in UTF-8, whatever encoding Repeat reads it in
/// (UTF-8, or UTF-16 with or without a byte-order mark): to tell a file's
/// kind by its first characters (`<kml`, `{`) before handing its bytes to
/// the reader that takes them as they are.
public enum TextStart {
    /// The UTF-8 form of the first `limit` bytes of `bytes`.
    public static func utf8(_ bytes: [UInt8], limit: Int = 4096) -> [UInt8] {
        var transcoder = TextTranscoder()
        var text: [UInt8] = []
        Array(bytes.prefix(limit)).withUnsafeBytes { transcoder.transcode($0) { text.append(contentsOf: $0) } }
        transcoder.finish { text.append(contentsOf: $0) }
        return text
    }
}
