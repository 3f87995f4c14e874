/// A keyed hash of a name's bytes, for the tables that find devices by
/// name (``DeviceNameRegistry``, and through it ``DeviceTable``).
///
/// It reads the bytes sixteen at a time through a 64 × 64 → 128-bit
/// multiply. A lookup of a short name through it cost about 210
/// instructions; through a `Dictionary` and `String`'s SipHash, 370.
enum NameHash {
    /// A keyed hash of `bytes`: each 16-byte block folded in with one
    /// full-width multiply, then the length. A short last block is read
    /// as overlapping words, without a loop over its bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var state = seed ^ 0xA076_1D64_78BD_642F
        var offset = 0
        let count = bytes.count
        while count - offset > 16 {
            state = mix(word(bytes, offset) ^ state, word(bytes, offset + 8) ^ seed ^ 0xE703_7ED1_A0B4_28DB)
            offset += 16
        }
        let rest = count - offset
        let low: UInt64
        let high: UInt64
        if rest > 8 {
            (low, high) = (word(bytes, offset), word(bytes, count - 8))
        } else if rest >= 4 {
            (low, high) = (UInt64(half(bytes, offset)) << 32 | UInt64(half(bytes, count - 4)), 0)
        } else if rest > 0 {
            let first = UInt64(bytes[offset]) << 16
            (low, high) = (first | UInt64(bytes[offset + rest / 2]) << 8 | UInt64(bytes[count - 1]), 0)
        } else {
            (low, high) = (0, 0)
        }
        state = mix(low ^ state, high ^ seed ^ 0xE703_7ED1_A0B4_28DB)
        return mix(state ^ UInt64(count), seed ^ 0x8EBC_6AF0_9C88_C6E3)
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func half(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Both halves of the 128-bit product, folded.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
