/// Where a line's break or a field's delimiter is, found eight bytes at a
/// time: the framer and the CSV splitter look for one of two bytes in
/// every byte of their input. Here rather than in GeoCore's ``ByteWords``
/// because the optimizer inlines it here, and not across the modules
/// (a call per search cost about 7 % of CSV decoding).
package enum ByteSearch {
    /// The index of the first byte of `bytes` at or after `start` that is
    /// `a` or `b`; `bytes.count` when none is. Eight bytes at a time while
    /// eight remain, then byte by byte.
    @inline(__always)
    package static func firstIndex(of a: UInt8, or b: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let count = bytes.count
        var offset = start
        while offset &+ 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // The lowest mark of each test is exact, so the lowest of both is.
            let marks = Self.marks(of: word, equalTo: a) | Self.marks(of: word, equalTo: b)
            if marks != 0 { return offset &+ marks.trailingZeroBitCount &>> 3 }
            offset &+= 8
        }
        while offset < count, bytes[offset] != a, bytes[offset] != b { offset &+= 1 }
        return offset
    }

    /// Bit 7 of the bytes of `word` equal to `byte`: the zero-byte test,
    /// which marks nothing when no byte matches, and whose lowest mark is
    /// the first match (a borrow can mark bytes after a match, never before).
    @inline(__always)
    private static func marks(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let zeroed = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (zeroed &- 0x0101_0101_0101_0101) & ~zeroed & 0x8080_8080_8080_8080
    }
}
