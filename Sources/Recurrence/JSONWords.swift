/// JSON text read eight bytes at a time (SWAR: SIMD within a register).
///
/// Each mask has bit 7 set in the bytes of a little-endian word that match,
/// exact up to and including the lowest one that matches (a borrow can
/// mark bytes after it), so `trailingZeroBitCount / 8` is the offset of
/// the first match in the text.
enum JSONWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` in `base`, the first in the lowest byte.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `word` equal to `byte`.
    @inline(__always)
    private static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let zeroed = word ^ (ones &* UInt64(byte))
        return (zeroed &- ones) & ~zeroed & highBits
    }

    /// The bytes that end a plain string's fast scan: a quote, a
    /// backslash, a control character or a byte that is not ASCII.
    @inline(__always)
    static func stringStops(_ word: UInt64) -> UInt64 {
        bytes(of: word, equalTo: UInt8(ascii: "\"")) | bytes(of: word, equalTo: UInt8(ascii: "\\"))
            | ((word &- ones &* 0x20) | word) & highBits
    }

    /// Where the plain run of a string's bytes from `start` ends: at the
    /// first quote, backslash or control character, or at the text's end;
    /// with whether every byte of the run is ASCII. Eight bytes at a time
    /// up to the first stop or byte that is not ASCII, then byte by byte.
    @inline(__always)
    static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isASCII: Bool) {
        guard let base = bytes.baseAddress else { return (start, true) }
        var end = start
        while end + 8 <= bytes.count {
            let stops = stringStops(word(base, at: end))
            guard stops == 0 else {
                end += stops.trailingZeroBitCount >> 3
                // The common case: the string's closing quote.
                if base[end] == UInt8(ascii: "\"") { return (end, true) }
                break
            }
            end += 8
        }
        // Every byte or'ed together: below 0x80 means ASCII.
        var high: UInt8 = 0
        while end < bytes.count {
            let byte = base[end]
            guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 else { break }
            high |= byte
            end += 1
        }
        return (end, high < 0x80)
    }

    /// How many spaces start the eight bytes at `offset` (8 when all are).
    @inline(__always)
    private static func leadingSpaces(_ base: UnsafePointer<UInt8>, at offset: Int) -> Int {
        let others = word(base, at: offset) ^ (ones &* 0x20)
        return others == 0 ? 8 : others.trailingZeroBitCount >> 3
    }

    /// Where the blanks (spaces, tabs, line ends) from `position` in
    /// `bytes` end; indentation is stepped over eight bytes at a time.
    @inline(__always)
    static func endOfWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        guard let base = bytes.baseAddress else { return position }
        let count = bytes.count
        var position = position
        while position < count {
            let byte = base[position]
            // Most tokens follow no blank at all.
            if byte > 0x20 { return position }
            if byte == 0x20, position + 8 <= count {
                position += leadingSpaces(base, at: position)
                continue
            }
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return position }
            position += 1
        }
        return position
    }
}
