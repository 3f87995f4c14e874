/// Fixed-point decimal text for the encoders: `-12.340` with a set number
/// of decimals, never an exponent (which GPX's `xsd:decimal` and NMEA
/// forbid), without allocating.
enum DecimalText {
    /// Appends `value` rounded to `decimals` (0…9) places; `-` only when
    /// the rounded value is not zero. The value must be finite and below
    /// 10^18 / 10^decimals in magnitude.
    static func append(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        precondition(value.isFinite, "a non-finite number has no decimal text")
        let scale = powersOfTen[decimals]
        let scaled = UInt64((value.magnitude * Double(scale)).rounded())
        if value < 0, scaled > 0 { bytes.append(0x2D) }
        appendUnsigned(scaled / scale, to: &bytes)
        if decimals > 0 {
            bytes.append(0x2E)
            appendDigits(scaled % scale, width: decimals, to: &bytes)
        }
    }

    /// Appends an unsigned integer without leading zeros.
    static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        var width = 1
        while width < 19, value >= powersOfTen[width] { width += 1 }
        appendDigits(value, width: width, to: &bytes)
    }

    /// Appends the last `width` decimal digits of `value`, zero-padded.
    static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var divisor = powersOfTen[width - 1]
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
            divisor /= 10
        }
    }

    private static let powersOfTen: [UInt64] = (0...18).map { exponent in
        (0..<exponent).reduce(1) { power, _ in power * 10 }
    }
}
