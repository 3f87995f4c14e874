/// Short byte strings (device names, JSON text) compared and checked
/// eight bytes at a time: a byte loop with its bounds checks cost about
/// ten instructions a byte, a word loop about two.
package enum ByteWords {
    /// Whether `a` and `b` hold the same bytes.
    package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard b.count == count else { return false }
        guard count >= 8 else {
            for index in 0..<count where a[index] != b[index] { return false }
            return true
        }
        var offset = 0
        while offset < count - 8 {
            if word(a, offset) != word(b, offset) { return false }
            offset += 8
        }
        return word(a, count - 8) == word(b, count - 8)
    }

    /// Whether every byte of `bytes` is ASCII.
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 else {
            for byte in bytes where byte >= 0x80 { return false }
            return true
        }
        return marks(of: bytes) { $0 & highs } == 0
    }

    /// Whether every byte of `bytes` is ASCII and none is `"`.
    package static func isASCIIWithoutQuotes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 else {
            for byte in bytes where byte >= 0x80 || byte == 0x22 { return false }
            return true
        }
        return marks(of: bytes, highOrQuote) == 0
    }

    /// Whether some byte of `bytes` must be escaped in a JSON string: a
    /// control character (below 0x20), `"` or `\`.
    package static func needsJSONEscape(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 else {
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
            return false
        }
        return marks(of: bytes, escapeMarks) != 0
    }

    /// `mark` of every word of `bytes` (eight bytes or more) or'ed
    /// together; the last word overlaps the one before it when the count
    /// is not a multiple of eight.
    @inline(__always)
    private static func marks(of bytes: UnsafeRawBufferPointer, _ mark: (UInt64) -> UInt64) -> UInt64 {
        let count = bytes.count
        var flags: UInt64 = 0
        var offset = 0
        while offset < count - 8 {
            flags |= mark(word(bytes, offset))
            offset += 8
        }
        return flags | mark(word(bytes, count - 8))
    }

    /// A high bit in some byte when `word` has a byte below 0x20, a `"` or
    /// a `\`; zero otherwise.
    @inline(__always)
    private static func escapeMarks(_ word: UInt64) -> UInt64 {
        bytes(of: word, below: 0x20) | bytes(of: word, equalTo: 0x22) | bytes(of: word, equalTo: 0x5C)
    }

    /// A high bit in some byte when `word` has a byte ≥ 0x80 or a `"`;
    /// zero otherwise.
    @inline(__always)
    static func highOrQuote(_ word: UInt64) -> UInt64 { word & highs | bytes(of: word, equalTo: 0x22) }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Bit 7 of the bytes of `word` equal to `byte`: the zero-byte test,
    /// which marks nothing when no byte matches (a borrow can mark bytes
    /// after a match, never without one).
    @inline(__always)
    private static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let zeroed = word ^ (ones &* UInt64(byte))
        return (zeroed &- ones) & ~zeroed & highs
    }

    /// Bit 7 of the bytes of `word` below `limit` (at most 0x80), by the
    /// same test; a byte ≥ 0x80 is never marked.
    @inline(__always)
    private static func bytes(of word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}
