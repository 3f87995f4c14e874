/// One pass over a sentence: the XOR checksum of the bytes between `$`
/// and `*`, the field boundaries (commas), and where `*` is.
///
/// Works eight bytes at a time: per word, exact masks of the bytes equal
/// to `,` and to `*` (the SWAR zero-byte test), the word XORed into the
/// checksum; the few bytes after the last whole word go one by one.
struct NMEASentenceScan {
    /// XOR of the bytes after `$` up to (not including) `*` or the end.
    private(set) var checksum: UInt8 = 0
    /// Number of fields recorded in `bounds` (start, end pairs).
    private(set) var fieldCount = 0
    /// Index of `*`, or the sentence's length when there is none.
    private(set) var star: Int

    private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// A mask with bit 7 set in each byte of `word` that is zero, and no other bit.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low7) &+ low7) | word | low7)
    }

    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, bounds: UnsafeMutablePointer<Int32>, maximumFields: Int) {
        let count = bytes.count
        star = count
        var fieldStart = 1
        var accumulated: UInt64 = 0
        var i = 1
        // Positions within a sentence cannot overflow: wrapping arithmetic
        // spares a check per comma.
        @inline(__always) func field(endingAt end: Int) {
            if fieldCount < maximumFields {
                bounds[2 &* fieldCount] = Int32(truncatingIfNeeded: fieldStart)
                bounds[2 &* fieldCount &+ 1] = Int32(truncatingIfNeeded: end)
                fieldCount &+= 1
            }
            fieldStart = end &+ 1
        }
        var foundStar = false
        if let base = bytes.baseAddress {
            while i + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                var commas = Self.zeroBytes(word ^ 0x2C2C_2C2C_2C2C_2C2C)
                let stars = Self.zeroBytes(word ^ 0x2A2A_2A2A_2A2A_2A2A)
                var keep = UInt64.max
                if stars != 0 {
                    let k = stars.trailingZeroBitCount >> 3
                    keep = k == 0 ? 0 : UInt64.max >> (64 - 8 * k)
                    commas &= keep
                }
                accumulated ^= word & keep
                while commas != 0 {
                    field(endingAt: i &+ commas.trailingZeroBitCount >> 3)
                    commas &= commas - 1
                }
                if stars != 0 {
                    star = i + stars.trailingZeroBitCount >> 3
                    foundStar = true
                    break
                }
                i += 8
            }
        }
        var folded = accumulated ^ accumulated >> 32
        folded ^= folded >> 16
        folded ^= folded >> 8
        var sum = UInt8(truncatingIfNeeded: folded)
        if !foundStar {
            while i < count {
                let b = bytes[i]
                if b == 0x2A {
                    star = i
                    break
                }
                if b == 0x2C { field(endingAt: i) }
                sum ^= b
                i += 1
            }
        }
        field(endingAt: star)
        checksum = sum
    }
}
