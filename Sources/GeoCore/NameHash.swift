/// A keyed hash of a name's bytes, for the tables that find devices by
/// name (``DeviceNameRegistry``, and through it ``DeviceTable``).
///
/// It reads the bytes sixteen at a time through a 64 × 64 → 128-bit
/// multiply. A lookup of a short name through it cost about 210
/// instructions; through a `Dictionary` and `String`'s SipHash, 370.
enum NameHash {
    /// A keyed hash of `bytes`: each 16-byte block folded in with one
    /// full-width multiply, then the last block (1 to 16 bytes) as its
    /// ``ShortName``'s words, read without a loop over its bytes, then the
    /// length.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var state = seed ^ 0xA076_1D64_78BD_642F
        var offset = 0
        let count = bytes.count
        while count - offset > 16 {
            state = mix(word(bytes, offset) ^ state, word(bytes, offset + 8) ^ seed ^ 0xE703_7ED1_A0B4_28DB)
            offset += 16
        }
        let last = ShortName(UnsafeRawBufferPointer(rebasing: bytes[offset...])).unsafelyUnwrapped
        return finish(state, last: last, count: count, seed: seed)
    }

    /// The hash of the name that `name` holds: the same as of its bytes.
    static func hash(_ name: ShortName, seed: UInt64) -> UInt64 {
        finish(seed ^ 0xA076_1D64_78BD_642F, last: name, count: name.count, seed: seed)
    }

    /// Folds in the last block and the length.
    @inline(__always)
    private static func finish(_ state: UInt64, last: ShortName, count: Int, seed: UInt64) -> UInt64 {
        let state = mix(last.first ^ state, last.second ^ seed ^ 0xE703_7ED1_A0B4_28DB)
        return mix(state ^ UInt64(count), seed ^ 0x8EBC_6AF0_9C88_C6E3)
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Both halves of the 128-bit product, folded.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
