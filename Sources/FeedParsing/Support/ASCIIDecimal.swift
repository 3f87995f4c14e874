#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A decimal number read from ASCII bytes without allocating: the digits
/// as an integer and the count of digits after the point.
///
/// `123.4500` is `mantissa 1234500, scale 4`. Decoders use it both for
/// plain numbers (``double``) and for NMEA's `ddmm.mmmm` angles, where the
/// integer form splits degrees from minutes exactly.
package struct ASCIIDecimal: Hashable, Sendable {
    /// The digits as an integer, without sign or point.
    package var mantissa: UInt64
    /// Digits after the decimal point (or a negative power of ten from an exponent).
    package var scale: Int
    /// Whether the number had a leading minus sign.
    package var isNegative: Bool

    /// Creates a decimal from its parts.
    @inlinable
    package init(mantissa: UInt64, scale: Int, isNegative: Bool) {
        self.mantissa = mantissa
        self.scale = scale
        self.isNegative = isNegative
    }

    /// 10^exponent as a `Double`, exact for exponents 0…22 (every
    /// intermediate product is a power of ten that `Double` holds exactly).
    @inlinable @inline(__always)
    package static func exactPowerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default:
            (0..<exponent).reduce(1.0) { value, _ in value * 10 }
        }
    }

    /// Parses `[+-]digits[.digits][e[+-]digits]` from `bytes[start..<end]`
    /// with surrounding blanks; `nil` if it is anything else, or has more
    /// than 19 significant digits.
    @inlinable
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ASCIIDecimal? {
        parsePlain(bytes, start, end) ?? parseAnyForm(bytes, start, end)
    }

    /// ``parse(_:_:_:)`` of every form, the plain one included.
    @inlinable
    package static func parseAnyForm(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ASCIIDecimal? {
        var i = start
        var stop = end
        while i < stop, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        while stop > i, bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x09 || bytes[stop - 1] == 0x0D { stop -= 1 }
        guard i < stop else { return nil }
        var negative = false
        if bytes[i] == 0x2D {
            negative = true
            i += 1
        } else if bytes[i] == 0x2B {
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var scale = 0
        var seenPoint = false
        while i < stop {
            let b = bytes[i]
            if b &- 0x30 < 10 {
                if mantissa != 0 || b != 0x30 { significant += 1 }
                guard significant <= 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(b &- 0x30)
                digits += 1
                if seenPoint { scale += 1 }
            } else if b == 0x2E, !seenPoint {
                seenPoint = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i < stop, bytes[i] | 0x20 == 0x65 {  // e E
            i += 1
            var exponentNegative = false
            if i < stop, bytes[i] == 0x2D || bytes[i] == 0x2B {
                exponentNegative = bytes[i] == 0x2D
                i += 1
            }
            var exponent = 0
            let exponentStart = i
            while i < stop, bytes[i] &- 0x30 < 10, exponent < 10_000 {
                exponent = exponent * 10 + Int(bytes[i] &- 0x30)
                i += 1
            }
            guard i > exponentStart else { return nil }
            scale += exponentNegative ? exponent : -exponent
        }
        guard i == stop else { return nil }
        return ASCIIDecimal(mantissa: mantissa, scale: scale, isNegative: negative)
    }

    /// The common case of ``parse(_:_:_:)`` in one quick pass: `digits[.digits]`
    /// and nothing else, at most 19 bytes (so at most 19 digits, which
    /// `UInt64` holds); `nil` for anything else, which the full parse reads.
    @inlinable @inline(__always)
    package static func parsePlain(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ASCIIDecimal? {
        guard end - start <= 19 else { return nil }
        var i = start
        var mantissa: UInt64 = 0
        while i < end, bytes[i] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            i += 1
        }
        guard i > start else { return nil }
        var scale = 0
        if i < end {
            guard bytes[i] == 0x2E else { return nil }
            i += 1
            let fractionStart = i
            while i < end {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
            }
            scale = i - fractionStart
        }
        return ASCIIDecimal(mantissa: mantissa, scale: scale, isNegative: false)
    }

    /// The nearest `Double`: exact (one correctly rounded division or
    /// multiplication) when the mantissa fits 53 bits and the scale is
    /// within ±22, else computed by `strtod` from the digits.
    @inlinable
    package var double: Double {
        var value: Double
        if mantissa < (1 << 53), scale >= -22, scale <= 22 {
            value = Double(mantissa)
            if scale > 0 {
                value /= Self.exactPowerOfTen(scale)
            } else if scale < 0 {
                value *= Self.exactPowerOfTen(-scale)
            }
        } else {
            value = Self.slowDouble(mantissa: mantissa, scale: scale)
        }
        return isNegative ? -value : value
    }

    @usableFromInline
    static func slowDouble(mantissa: UInt64, scale: Int) -> Double {
        var text = Array(String(mantissa).utf8)
        text.append(0x65)
        text.append(contentsOf: String(-scale).utf8)
        text.append(0)
        return text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { strtod($0.baseAddress!, nil) }
        }
    }

    /// Parses a number from `bytes[start..<end]`; `nil` unless the whole
    /// range (blanks aside) is one.
    @inlinable
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if let decimal = parse(bytes, start, end) { return decimal.double }
        return longDouble(bytes, start, end)
    }

    /// `strtod` for numbers with more than 19 significant digits (GPX
    /// exporters that print every digit of a binary double); `nil` unless
    /// the whole range is a plain decimal number.
    @usableFromInline
    static func longDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var text: [CChar] = []
        var digits = 0
        for i in start..<end {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0D { continue }
            guard (b &- 0x30) < 10 || b == 0x2E || b == 0x2D || b == 0x2B || b | 0x20 == 0x65 else { return nil }
            if (b &- 0x30) < 10 { digits += 1 }
            text.append(CChar(bitPattern: b))
        }
        guard digits > 19, text.count < 400 else { return nil }
        text.append(0)
        return text.withUnsafeBufferPointer { buffer -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end - UnsafeMutablePointer(mutating: buffer.baseAddress!) == buffer.count - 1 else { return nil }
            return value
        }
    }
}
