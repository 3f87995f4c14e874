import Foundation

/// A reader of JSON text that ``JSONScanner`` has already checked, for
/// values read straight from their bytes with no tree in between.
///
/// It trusts the grammar (brackets match, strings end, numbers are
/// numbers), so it checks little; it reads only the plainest forms and
/// answers `nil` (or `false`) for anything else — a string with an
/// escape, a `null`, a value of another kind — leaving the caller to read
/// the value as a tree instead. Nothing it does throws.
struct CheckedJSONCursor {
    /// The whole checked text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next byte is read.
    private(set) var position: Int

    /// A cursor at `position` in checked `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Steps over `byte`, after any blanks, if it comes next.
    mutating func take(_ byte: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: byte) else { return false }
        position += 1
        return true
    }

    /// The bytes of the string that comes next (after blanks), between its
    /// quotes; `nil`, with nothing read, if the next value is not a string
    /// or the string has an escape.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var end = start
        // Eight bytes at a time up to the first quote or backslash.
        if let base = bytes.baseAddress {
            while end + 8 <= bytes.count {
                let stops = JSONWords.quotesAndBackslashes(JSONWords.word(base, at: end))
                guard stops == 0 else {
                    end += stops.trailingZeroBitCount >> 3
                    break
                }
                end += 8
            }
        }
        // Checked text: the string ends before the text does.
        while bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        position = end + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The number that comes next (after blanks), read as ``JSONScanner``
    /// reads it; `nil`, with nothing read, for another kind of value.
    mutating func number() -> Double? {
        skipWhitespace()
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
        guard position > start, let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            position = start
            return nil
        }
        return value
    }

    /// Reads an object's members: `member` is called with each name's
    /// bytes, the cursor before its value, and must read the value;
    /// `false` (with the read given up) if the next value is not an object
    /// or `member` answers `false`.
    mutating func members(_ member: (UnsafeBufferPointer<UInt8>, inout CheckedJSONCursor) -> Bool) -> Bool {
        guard take("{") else { return false }
        if take("}") { return true }
        repeat {
            guard let name = plainString(), take(":"), member(name, &self) else { return false }
        } while take(",")
        return take("}")
    }

    /// Reads an array's elements: `element` is called with the cursor
    /// before each and must read it; `false` (with the read given up) if
    /// the next value is not an array or `element` answers `false`.
    mutating func elements(_ element: (inout CheckedJSONCursor) -> Bool) -> Bool {
        guard take("[") else { return false }
        if take("]") { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(",")
        return take("]")
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    private mutating func skipWhitespace() { position = JSONWords.endOfWhitespace(in: bytes, from: position) }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes spell `name` (ASCII).
    func spells(_ name: StaticString) -> Bool {
        hasSameBytes(as: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether these bytes are `other`'s.
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
