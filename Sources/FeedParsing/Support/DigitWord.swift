/// Runs of ASCII digits read eight bytes at a time (SWAR: SIMD within a
/// register), for NMEA's `ddmm.mmmm` angles. (Fields of three to five
/// characters, speeds and altitudes, read faster byte by byte.)
///
/// A run is read from one unaligned 8-byte load, so the caller must know
/// that eight bytes are readable at the run's start; runs of eight digits
/// or more are left to a byte-by-byte loop.
package struct DigitWord {
    /// The loaded bytes XOR `'0'`: a digit byte holds its value (0…9).
    @usableFromInline let values: UInt64
    /// How many digits start the word (0…8).
    @usableFromInline let count: Int

    /// The digits at the start of the eight bytes at `pointer`.
    @inlinable @inline(__always)
    package init(at pointer: UnsafePointer<UInt8>) {
        values = UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)) ^ 0x3030_3030_3030_3030
        // A byte above 9 sets its high bit, itself or after adding 0x76.
        // A carry out of a byte comes only from one already marked, so the
        // lowest mark is exact.
        let others = (values | (values &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
        count = others == 0 ? 8 : others.trailingZeroBitCount >> 3
    }

    /// The value of the first `digits` digits (1…8, at most ``count``).
    @inlinable @inline(__always)
    package func value(ofFirst digits: Int) -> UInt64 {
        // The run moved to the top bytes: the bytes below read as leading zeros.
        var v = values << UInt64(truncatingIfNeeded: 64 &- 8 &* digits)
        v = (v &* 10 &+ v >> 8) & 0x00FF_00FF_00FF_00FF
        v = (v &* 100 &+ v >> 16) & 0x0000_FFFF_0000_FFFF
        return (v &* 10_000 &+ v >> 32) & 0xFFFF_FFFF
    }
}

extension DigitWord {
    /// `digits[.digits]` filling `bytes[start..<end]`, read a word at a
    /// time: the digits as one integer (point left out) and how many came
    /// after the point. `nil` when the quick read does not apply — fewer
    /// than eight bytes readable, a run of eight digits or more, no digit
    /// before the point, anything else in the range — and the caller's
    /// byte-by-byte read decides.
    @inlinable @inline(__always)
    package static func plainDecimal(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> (whole: UInt64, fraction: UInt64, fractionDigits: Int)? {
        // Offsets within a buffer: no arithmetic here can overflow.
        guard let base = bytes.baseAddress, start &+ 8 <= bytes.count else { return nil }
        let whole = DigitWord(at: base + start)
        let wholeDigits = min(whole.count, end &- start)
        guard wholeDigits > 0, wholeDigits < 8 || start &+ 8 == end else { return nil }
        let point = start &+ wholeDigits
        if point == end { return (whole.value(ofFirst: wholeDigits), 0, 0) }
        guard base[point] == UInt8(ascii: "."), point &+ 9 <= bytes.count else { return nil }
        let fraction = DigitWord(at: base + point + 1)
        let fractionDigits = min(fraction.count, end &- point &- 1)
        guard point &+ 1 &+ fractionDigits == end, fractionDigits < 8 || point &+ 9 == end else { return nil }
        return (
            whole.value(ofFirst: wholeDigits), fractionDigits == 0 ? 0 : fraction.value(ofFirst: fractionDigits), fractionDigits
        )
    }
}
