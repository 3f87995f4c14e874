/// A FIT field's base type (the low five bits of its base-type byte): how
/// wide one value is, how it is read, and which bit pattern means "no
/// value" (FIT's invalid value).
struct FITBaseType: Equatable {
    /// The base type number: 0 enum, 1 sint8, 2 uint8, 3 sint16, 4 uint16,
    /// 5 sint32, 6 uint32, 7 string, 8 float32, 9 float64, 10 uint8z,
    /// 11 uint16z, 12 uint32z, 13 byte, 14 sint64, 15 uint64, 16 uint64z.
    let number: UInt8

    /// The type of a base-type byte (its endian-ability bit set aside).
    init(_ byte: UInt8) { number = byte & 0x1F }

    /// The bytes of one value (1 for strings and bytes, read a byte at a time).
    var width: Int {
        switch number {
        case 3, 4, 11: 2
        case 5, 6, 8, 12: 4
        case 9, 14, 15, 16: 8
        default: 1
        }
    }

    private var isSigned: Bool { number == 1 || number == 3 || number == 5 || number == 14 }
    private var isFloat: Bool { number == 8 || number == 9 }
    /// The `z` types, whose invalid value is 0 rather than all ones.
    private var isZeroInvalid: Bool { number == 10 || number == 11 || number == 12 || number == 16 }

    /// The number in the `width` bytes at `start`, or `nil` for the invalid
    /// value, a string, or a float that is not finite.
    func value(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, isBigEndian: Bool) -> Double? {
        guard number != 7 else { return nil }
        let width = width
        var raw: UInt64 = 0
        for index in 0..<width {
            raw = raw << 8 | UInt64(bytes[start + (isBigEndian ? index : width - 1 - index)])
        }
        let bits = UInt64(width * 8)
        let allOnes = bits == 64 ? UInt64.max : (1 << bits) - 1
        if isFloat {
            guard raw != allOnes else { return nil }
            let value = width == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
            return value.isFinite ? value : nil
        }
        if isZeroInvalid { return raw == 0 ? nil : Double(raw) }
        if isSigned {
            guard raw != allOnes >> 1 else { return nil }
            return Double(Int64(bitPattern: raw << (64 - bits)) >> (64 - bits))
        }
        return raw == allOnes ? nil : Double(raw)
    }
}
