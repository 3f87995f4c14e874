import Foundation

/// A reader of JSON values straight from their bytes, with no tree in
/// between: the tasks file's fast path, run as the text is checked.
///
/// It reads only the plainest forms and answers `nil` (or `false`) for
/// anything else — a string with an escape, a `null`, a value of another
/// kind, a problem — leaving the value to ``JSONScanner``, which checks it
/// and names its problem, and to the tree reader. What it does read it
/// checks as ``JSONScanner`` does (RFC 8259: strings valid UTF-8 with no
/// control characters, numbers in JSON's form and finite, every bracket,
/// colon and comma in its place), so a value it reads whole needs no
/// other check. Nothing it does throws.
struct DirectJSONCursor {
    /// The whole text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next byte is read.
    private(set) var position: Int

    /// A cursor at `position` in `bytes`.
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

    /// ``take(_:)`` of a comma, whose commonest place, right after the
    /// value before it, is checked inline: 1.2 million commas for 100 000
    /// tasks.
    @inline(__always)
    private mutating func takeComma() -> Bool {
        if position < bytes.count, bytes[position] == UInt8(ascii: ",") {
            position += 1
            return true
        }
        return take(",")
    }

    /// The bytes of the string that comes next (after blanks), between its
    /// quotes, valid UTF-8; `nil`, with nothing read, if the next value is
    /// not a string, or the string has an escape or a control character,
    /// is not valid UTF-8 or does not end.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        let run = JSONWords.plainRun(in: bytes, from: start)
        guard run.end < bytes.count, bytes[run.end] == UInt8(ascii: "\"") else { return nil }
        let string = UnsafeBufferPointer(rebasing: bytes[start..<run.end])
        if !run.isASCII, String(validating: string, as: UTF8.self) == nil { return nil }
        position = run.end + 1
        return string
    }

    /// What `read` makes of the string that comes next (after blanks),
    /// when it is exactly `length` bytes between quotes and `read` takes
    /// them; `nil`, with only blanks read, otherwise. The bytes are not
    /// checked here, so `read` must answer `nil` for any that a string
    /// cannot hold as they are: a quote, a backslash, a control character
    /// or a byte that is not ASCII.
    mutating func string<Value>(ofLength length: Int, _ read: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        skipWhitespace()
        let start = position + 1
        guard start + length < bytes.count, let base = bytes.baseAddress, base[position] == UInt8(ascii: "\""),
            base[start + length] == UInt8(ascii: "\""),
            let value = read(UnsafeBufferPointer(start: base + start, count: length))
        else { return nil }
        position = start + length + 1
        return value
    }

    /// The number that comes next (after blanks), in JSON's form
    /// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) and finite, read
    /// as ``JSONScanner`` reads it; `nil`, with nothing read, for anything
    /// else.
    mutating func number() -> Double? {
        skipWhitespace()
        let start = position
        var end = start
        func digits() -> Bool {
            let first = end
            while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
            return end > first
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "0") {
            end += 1
        } else if !digits() {
            return nil
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            end += 1
            guard digits() else { return nil }
        }
        if end < bytes.count, bytes[end] | 0x20 == UInt8(ascii: "e") {
            end += 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            guard digits() else { return nil }
        }
        guard let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)), value.isFinite else { return nil }
        position = end
        return value
    }

    /// Reads an object's members: `member` is called with each name's
    /// bytes, the cursor before its value, and must read the value;
    /// `false` (with the read given up) if the next value is not an object
    /// or `member` answers `false`.
    mutating func members(_ member: (UnsafeBufferPointer<UInt8>, inout DirectJSONCursor) -> Bool) -> Bool {
        guard take("{") else { return false }
        if take("}") { return true }
        repeat {
            guard let name = memberName(), member(name, &self) else { return false }
        } while takeComma()
        return take("}")
    }

    /// The bytes of the member name that comes next (after blanks), as
    /// ``plainString()`` reads it, and the colon after it (and its blanks);
    /// `nil`, with the read given up, if either is missing.
    ///
    /// A plain name of up to 15 bytes with its colon right after it, or
    /// one space after it (every name of a tasks file, as printed or
    /// written by hand), is read a word or two at a time: the name and its
    /// colon read apart took some 150 instructions, 1.3 million times for
    /// 100 000 tasks.
    mutating func memberName() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        let start = position + 1
        // Room for the quote, two words, and after the closing quote
        // within them a space and the colon.
        if start + 18 <= bytes.count, let base = bytes.baseAddress, base[position] == UInt8(ascii: "\"") {
            var end = start
            var stops = JSONWords.stringStops(JSONWords.word(base, at: end))
            if stops == 0 {
                end += 8
                stops = JSONWords.stringStops(JSONWords.word(base, at: end))
            }
            end += stops.trailingZeroBitCount >> 3
            // Every byte before the first stop is plain ASCII.
            if stops != 0, base[end] == UInt8(ascii: "\"") {
                let colon = base[end + 1] == UInt8(ascii: " ") ? end + 2 : end + 1
                if base[colon] == UInt8(ascii: ":") {
                    position = colon + 1
                    return UnsafeBufferPointer(start: base + start, count: end - start)
                }
            }
        }
        guard let name = plainString(), take(":") else { return nil }
        return name
    }

    /// Reads an array's elements: `element` is called with the cursor
    /// before each and must read it; `false` (with the read given up) if
    /// the next value is not an array or `element` answers `false`.
    mutating func elements(_ element: (inout DirectJSONCursor) -> Bool) -> Bool {
        guard take("[") else { return false }
        if take("]") { return true }
        repeat {
            guard element(&self) else { return false }
        } while takeComma()
        return take("]")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    @inline(__always)
    private mutating func skipWhitespace() { position = JSONWords.endOfWhitespace(in: bytes, from: position) }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes spell `name` (ASCII).
    @inline(__always)
    func spells(_ name: StaticString) -> Bool {
        hasSameBytes(as: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether these bytes are `other`'s. Up to 16 bytes (the names of a
    /// tasks file's members), compared in two loads that may overlap,
    /// without a call to `memcmp`.
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        @inline(__always) func same<Word: FixedWidthInteger>(_: Word.Type) -> Bool {
            let last = count - MemoryLayout<Word>.size
            let first = UnsafeRawPointer(base).loadUnaligned(as: Word.self)
            let otherFirst = UnsafeRawPointer(otherBase).loadUnaligned(as: Word.self)
            let end = UnsafeRawPointer(base + last).loadUnaligned(as: Word.self)
            let otherEnd = UnsafeRawPointer(otherBase + last).loadUnaligned(as: Word.self)
            return (first ^ otherFirst) | (end ^ otherEnd) == 0
        }
        switch count {
        case 1: return base[0] == otherBase[0]
        case 2...3: return same(UInt16.self)
        case 4...7: return same(UInt32.self)
        case 8...16: return same(UInt64.self)
        default: return memcmp(base, otherBase, count) == 0
        }
    }
}
