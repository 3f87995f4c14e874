import GeoCore

/// One top-level member's value, as a ``JSONObjectScanner`` hands it on.
enum JSONScalar {
    /// A string: the bytes between its quotes, escapes as written (they
    /// were checked).
    case string(UnsafeBufferPointer<UInt8>)
    /// A number, parsed, with its own text for values a `Double` does not
    /// hold exactly (a 64-bit identifier).
    case number(Double, text: UnsafeBufferPointer<UInt8>)

    /// The string with its escapes resolved; `nil` for a number.
    var string: String? {
        guard case .string(let raw) = self else { return nil }
        return JSONObjectScanner.unescaped(raw)
    }

    /// The number; `nil` for a string.
    var number: Double? {
        guard case .number(let value, _) = self else { return nil }
        return value
    }

    /// The value as written: a string's text between its quotes, a number's digits.
    var text: String { String(decoding: written, as: UTF8.self) }

    /// The bytes of ``text``.
    var written: UnsafeBufferPointer<UInt8> {
        switch self {
        case .string(let raw): raw
        case .number(_, let text): text
        }
    }

    /// A whole number written as a number or as a string of digits (as
    /// Google writes some); `nil` when it is none or does not fit 64 bits.
    var integer: Int64? {
        let digits = written
        guard let decimal = ASCIIDecimal.parse(digits, 0, digits.count), decimal.scale == 0,
            let magnitude = Int64(exactly: decimal.mantissa)
        else { return nil }
        return decimal.isNegative ? -magnitude : magnitude
    }

    /// A string's RFC 3339 time; `nil` for a number or other text.
    var rfc3339: Timestamp? {
        guard case .string(let raw) = self else { return nil }
        return RFC3339.parse(utf8: raw)
    }

    /// Why ``rfc3339`` is `nil`, quoted: `'yesterday' is not RFC 3339`.
    var timeProblem: String {
        let text = string ?? text
        return "'\(text)' is \(RFC3339.outsideHeldSpan(text) ?? "not RFC 3339")"
    }
}

/// What a ``JSONObjectScanner`` hands each top-level member to.
protocol JSONMemberSink {
    /// Takes one top-level string or number member.
    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar)
    /// Takes one top-level member of another kind (an object, an array,
    /// `true`, `false` or `null`) as its bytes, which a sink that wants
    /// them scans with a scanner of its own. Passed over unless a sink
    /// says otherwise.
    mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>)
}

extension JSONMemberSink {
    mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>) {}
}

/// A minimal JSON scanner for one object (a gpsd line, a Takeout location
/// record, a Timeline segment): reads top-level string and number members,
/// hands nested values on as their bytes, and rejects anything that is not
/// JSON. It allocates nothing: values are handed on as the bytes they are.
struct JSONObjectScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    /// Scans `{ "key": value, … }`; `false` at the first syntax error.
    mutating func scanObject<Sink: JSONMemberSink>(into report: inout Sink) -> Bool {
        guard consume(0x7B) else { return false }
        skipBlanks()
        if consume(0x7D) { return trailingBlanksOnly() }
        while true {
            skipBlanks()
            guard let key = scanStringRange() else { return false }
            skipBlanks()
            guard consume(0x3A) else { return false }
            skipBlanks()
            guard position < bytes.count else { return false }
            let keyBytes = UnsafeBufferPointer(rebasing: bytes[key.start..<key.end])
            switch bytes[position] {
            case 0x22:
                guard let range = scanStringRange() else { return false }
                let raw = UnsafeBufferPointer(rebasing: bytes[range.start..<range.end])
                // Escapes are rare: checked where they are, by resolving them.
                if raw.contains(0x5C), Self.unescaped(raw) == nil { return false }
                report.set(key: keyBytes, value: .string(raw))
            case 0x2D, 0x30...0x39:
                let start = position
                while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
                guard let number = ASCIIDecimal.double(bytes, start, position) else { return false }
                report.set(key: keyBytes, value: .number(number, text: UnsafeBufferPointer(rebasing: bytes[start..<position])))
            default:
                let start = position
                guard skipValue() else { return false }
                report.set(key: keyBytes, nested: UnsafeBufferPointer(rebasing: bytes[start..<position]))
            }
            skipBlanks()
            if consume(0x2C) { continue }
            guard consume(0x7D) else { return false }
            return trailingBlanksOnly()
        }
    }

    /// Scans `[ value, … ]`, handing each element's bytes to `element`
    /// (which says whether to go on); `false` at the first syntax error
    /// or when `element` stops.
    mutating func scanArray(_ element: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        skipBlanks()
        guard consume(0x5B) else { return false }
        skipBlanks()
        if consume(0x5D) { return trailingBlanksOnly() }
        while true {
            skipBlanks()
            let start = position
            guard position < bytes.count, bytes[position] != 0x5D, bytes[position] != 0x2C, skipValue() else {
                return false
            }
            var end = position
            while end > start, Self.isBlank(bytes[end - 1]) { end -= 1 }
            guard element(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return false }
            skipBlanks()
            if consume(0x2C) { continue }
            guard consume(0x5D) else { return false }
            return trailingBlanksOnly()
        }
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    private static func isNumberByte(_ b: UInt8) -> Bool {
        (b &- 0x30) < 10 || b == 0x2E || b == 0x2D || b == 0x2B || b == 0x65 || b == 0x45
    }

    private mutating func trailingBlanksOnly() -> Bool {
        skipBlanks()
        return position == bytes.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipBlanks() {
        while position < bytes.count, Self.isBlank(bytes[position]) { position += 1 }
    }

    /// The raw range inside a string's quotes (escapes left as they are).
    private mutating func scanStringRange() -> (start: Int, end: Int)? {
        guard consume(0x22) else { return nil }
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case 0x22:
                position += 1
                return (start, position - 1)
            case 0x5C:
                position += 2
            case 0x00..<0x20:
                return nil
            default:
                position += 1
            }
        }
        return nil
    }

    /// The text between a string's quotes with its escapes resolved; `nil`
    /// for a broken `\u` escape.
    static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard raw.contains(0x5C) else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var i = 0
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll()
        }
        while i < raw.count {
            guard raw[i] == 0x5C, i + 1 < raw.count else {
                utf8.append(raw[i])
                i += 1
                continue
            }
            let escaped = raw[i + 1]
            i += 2
            switch escaped {
            case 0x6E: utf8.append(0x0A)
            case 0x74: utf8.append(0x09)
            case 0x72: utf8.append(0x0D)
            case 0x62: utf8.append(0x08)
            case 0x66: utf8.append(0x0C)
            case 0x75:
                guard i + 4 <= raw.count else { return nil }
                var value: UInt32 = 0
                for k in 0..<4 {
                    guard raw[i + k].isHexDigit else { return nil }
                    value = value << 4 | UInt32(raw[i + k].hexValue)
                }
                i += 4
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default: utf8.append(escaped)
            }
        }
        flush()
        return String(scalars)
    }

    /// Skips any JSON value: nested objects/arrays, literals.
    private mutating func skipValue() -> Bool {
        var depth = 0
        repeat {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case 0x22:
                guard scanStringRange() != nil else { return false }
                continue
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                if depth == 0 { return true }
                depth -= 1
            case 0x2C where depth == 0:
                return true
            default: break
            }
            position += 1
        } while depth > 0 || (position < bytes.count && bytes[position] != 0x2C && bytes[position] != 0x7D)
        return true
    }
}
