/// Fixed-point decimal text for the encoders: `-12.340` with a set number
/// of decimals, never an exponent (which GPX's `xsd:decimal` and NMEA
/// forbid), without allocating: digits are formed in a small stack buffer
/// and appended at once.
enum DecimalText {
    /// Appends `value` rounded to `decimals` (0…9) places; `-` only when
    /// the rounded value is not zero. The value must be finite and below
    /// 10^18 / 10^decimals in magnitude.
    static func append(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        precondition(value.isFinite, "a non-finite number has no decimal text")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        let scaled = roundedMagnitude(value * Double(scale))
        if value < 0, scaled > 0 { bytes.append(0x2D) }
        appendUnsigned(scaled / scale, to: &bytes)
        if decimals > 0 {
            bytes.append(0x2E)
            appendDigits(scaled % scale, width: decimals, to: &bytes)
        }
    }

    /// `|value|` rounded to the nearest integer, halves away from zero:
    /// `UInt64(value.magnitude.rounded())` without the call to the C
    /// library's `round` that `rounded()` costs on baseline x86-64. The
    /// magnitude must be below 2^64.
    @inline(__always)
    static func roundedMagnitude(_ value: Double) -> UInt64 {
        let magnitude = value.magnitude
        let whole = UInt64(magnitude)
        // Exact: below 2^52 the fraction is representable, above it is 0.
        return magnitude - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    /// Appends an unsigned integer without leading zeros.
    static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        var width = 1
        var rest = value / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        appendDigits(value, width: width, to: &bytes)
    }

    /// Appends the last `width` (1…20) decimal digits of `value`, zero-padded.
    static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var index = width
            while index > 0 {
                index -= 1
                digits[index] = UInt8(truncatingIfNeeded: 0x30 &+ rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<width]))
        }
    }
}
