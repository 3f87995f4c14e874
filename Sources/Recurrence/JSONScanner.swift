/// The byte-level reader behind ``JSONText``: RFC 8259, strictly (no
/// comments, no trailing commas, no NaN; strings valid UTF-8 with no raw
/// control characters and no lone surrogate escapes).
struct JSONScanner {
    // Internal rather than private for JSONArrayCheck.swift's piecewise
    // check, as are a few steps below for JSONScanner+QuickSkip.swift.
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    var depth: Int
    /// Whether ``checkDocument(findingMember:runsOf:jobs:piecewiseMinimum:)``
    /// found an object at the top.
    private(set) var rootIsObject = false
    /// Member names read lately, as their bytes packed in two words and
    /// as text: a run of tasks names the same dozen members again and again.
    private var interned: [(count: Int, words: (UInt64, UInt64), text: String)] = []
    private static let internedCount = 32

    /// A reader of `bytes` from `position`, `depth` levels deep.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0, depth: Int = 0) {
        self.bytes = bytes
        self.position = position
        self.depth = depth
    }

    /// Reads the whole text. When the last top-level member `name` is an
    /// array, returns the readers that read its elements as they were
    /// checked, in the array's order (see
    /// ``checkArray(jobs:piecewiseMinimum:reader:)``, which checks an array
    /// of `piecewiseMinimum` bytes or more on up to `jobs` threads).
    mutating func checkDocument<Reader: JSONElementReader>(
        findingMember name: String, jobs: Int, piecewiseMinimum: Int, reader makeReader: @Sendable (_ bytes: Int) -> Reader
    ) throws -> [Reader]? {
        skipWhitespace()
        var found: [Reader]?
        if peek == UInt8(ascii: "{") {
            rootIsObject = true
            if try beginObject() {
                repeat {
                    let key = try memberName()
                    skipWhitespace()
                    guard key == name else {
                        try skipValue()
                        continue
                    }
                    found = nil
                    guard peek == UInt8(ascii: "[") else {
                        try skipValue()
                        continue
                    }
                    found = try checkArray(jobs: jobs, piecewiseMinimum: piecewiseMinimum, reader: makeReader)
                } while try nextMember()
            }
        } else {
            try skipValue()
        }
        skipWhitespace()
        guard position == bytes.count else { throw problem("text after the end of the JSON value") }
        return found
    }

    /// The value that starts here (after blanks).
    mutating func value() throws -> JSONValue {
        skipWhitespace()
        guard let byte = peek else { throw problem("unexpected end of the text; expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            var object = JSONObject()
            // Tasks have about eight members: one allocation instead of four.
            object.members.reserveCapacity(8)
            if try beginObject() {
                repeat {
                    let key = try memberName()
                    object.members.append((key, try value()))
                } while try nextMember()
            }
            return .object(object)
        case UInt8(ascii: "["):
            var array: [JSONValue] = []
            if try beginArray() {
                repeat { array.append(try value()) } while try nextElement()
            }
            return .array(array)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try literal()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw unexpected(byte)
        }
    }

    /// Checks the value that starts here (after blanks), keeping nothing:
    /// ``value()``'s reading, problems and all, without making a value.
    mutating func skipValue() throws {
        skipWhitespace()
        guard let byte = peek else { throw problem("unexpected end of the text; expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            if try beginObject() {
                repeat {
                    try skipMemberName()
                    try skipValue()
                } while try nextMember()
            }
        case UInt8(ascii: "["):
            if try beginArray() {
                repeat { try skipValue() } while try nextElement()
            }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try literal()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
        default:
            throw unexpected(byte)
        }
    }

    /// The problem of a byte that cannot start a value.
    private func unexpected(_ byte: UInt8) -> JSONTextError {
        problem("unexpected character '\(Unicode.Scalar(byte).escaped(asASCII: true))'; expected a value")
    }

    /// Steps into the object that starts here; `false` if it is empty
    /// (and already left).
    private mutating func beginObject() throws -> Bool {
        try enter()
        skipWhitespace()
        guard peek == UInt8(ascii: "}") else { return true }
        position += 1
        depth -= 1
        return false
    }

    /// A member's name and the colon after it.
    private mutating func memberName() throws -> String {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw problem("expected a member name in double quotes") }
        let key = try string(interned: true)
        skipWhitespace()
        try expect(":")
        return key
    }

    /// ``memberName()``, only checked.
    private mutating func skipMemberName() throws {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw problem("expected a member name in double quotes") }
        try skipString()
        skipWhitespace()
        try expect(":")
    }

    /// After a member's value: `true` when another member follows, `false`
    /// at the end of the object (which is left).
    private mutating func nextMember() throws -> Bool {
        skipWhitespace()
        if peek == UInt8(ascii: ",") {
            position += 1
            return true
        }
        try expect("}")
        depth -= 1
        return false
    }

    /// Steps into the array that starts here; `false` if it is empty (and
    /// already left).
    mutating func beginArray() throws -> Bool {
        try enter()
        skipWhitespace()
        guard peek == UInt8(ascii: "]") else { return true }
        position += 1
        depth -= 1
        return false
    }

    /// After an element: `true` when another follows, `false` at the end of
    /// the array (which is left).
    mutating func nextElement() throws -> Bool {
        skipWhitespace()
        if peek == UInt8(ascii: ",") {
            position += 1
            return true
        }
        try expect("]")
        depth -= 1
        return false
    }

    /// Steps over an opening bracket, one level deeper.
    private mutating func enter() throws {
        depth += 1
        guard depth <= JSONText.maximumDepth else { throw problem("nested deeper than \(JSONText.maximumDepth) levels") }
        position += 1
    }

    /// A number, by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() throws -> Double {
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        if peek == UInt8(ascii: "0") {
            position += 1
        } else {
            try digits()
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            try digits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            try digits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw problem("the number \(text) is out of range") }
        return value
    }

    /// One or more decimal digits.
    private mutating func digits() throws {
        guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw problem("expected a digit")
        }
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
    }

    /// A string that starts here, unescaped. With `interned`, text seen
    /// before comes back without being made again (member names).
    private mutating func string(interned: Bool = false) throws -> String {
        let start = position + 1
        guard let ascii = try plainString() else { return try escapedString(from: start) }
        // Its UTF-8 checked already.
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
        return ascii && interned ? intern(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// ``string(interned:)``, only checked.
    private mutating func skipString() throws {
        let start = position + 1
        if try plainString() == nil { _ = try escapedString(from: start) }
    }

    /// Steps over the string that starts here when it has no escape (and
    /// no raw control character, and ends): whether it is all ASCII, its
    /// other UTF-8 checked. `nil`, just inside its opening quote, otherwise.
    mutating func plainString() throws -> Bool? {
        position += 1
        let start = position
        let run = JSONWords.plainRun(in: bytes, from: start)
        position = run.end
        guard peek == UInt8(ascii: "\"") else {
            position = start
            return nil
        }
        if !run.isASCII, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self) == nil {
            throw problem("a string is not valid UTF-8")
        }
        position += 1
        return run.isASCII
    }

    /// The rest of a string that has an escape (or ends the text, or holds
    /// a control character) from `start`, just after its opening quote.
    private mutating func escapedString(from start: Int) throws -> String {
        position = start
        var segment = start
        var unescaped: [UInt8] = []
        while true {
            guard let byte = peek else { throw problem("unterminated string") }
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw problem("a control character in a string must be escaped") }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            unescaped.append(contentsOf: bytes[segment..<position])
            position += 1
            try escape(into: &unescaped)
            segment = position
        }
        unescaped.append(contentsOf: bytes[segment..<position])
        guard let text = unescaped.withUnsafeBufferPointer(Self.text) else {
            throw problem("a string is not valid UTF-8")
        }
        position += 1
        return text
    }

    /// The text of ASCII `raw`, the same instance as last time when it
    /// was seen among the last few (names of up to 16 bytes, compared as
    /// two words).
    private mutating func intern(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard raw.count <= 16 else { return String(decoding: raw, as: UTF8.self) }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in raw.enumerated() {
            if index < 8 {
                words.0 |= UInt64(byte) << (8 * index)
            } else {
                words.1 |= UInt64(byte) << (8 * (index - 8))
            }
        }
        for name in interned where name.words == words && name.count == raw.count { return name.text }
        let text = String(decoding: raw, as: UTF8.self)
        if interned.count == Self.internedCount { interned.removeFirst() }
        interned.append((raw.count, words, text))
        return text
    }

    /// The text of UTF-8 bytes, `nil` if they are not valid UTF-8 (ASCII,
    /// the usual case, is not validated again).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws {
        guard let byte = peek else { throw problem("unterminated string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw problem("a \\u escape of a high surrogate must be followed by its low one")
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw problem("a high surrogate without its low one") }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw problem("a low surrogate without its high one")
            }
            text.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw problem("unknown escape '\\\(Unicode.Scalar(byte).escaped(asASCII: true))'")
        }
    }

    /// Four hexadecimal digits.
    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Self.hexValue(byte) else { throw problem("expected four hex digits after \\u") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `true`, `false` or `null`, by the letter that starts it.
    mutating func literal() throws -> JSONValue {
        switch peek {
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        default:
            try literal("null")
            return .null
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[position..<(position + count)])
        else { throw problem("expected \(word)") }
        position += count
    }

    // Inlined, as are the blanks below: a call to each cost more than
    // the step itself, several times a value.
    @inline(__always)
    private mutating func expect(_ character: Unicode.Scalar) throws {
        guard peek == UInt8(ascii: character) else { throw expected(character) }
        position += 1
    }

    /// The problem of a missing `character`.
    private func expected(_ character: Unicode.Scalar) -> JSONTextError { problem("expected '\(character)'") }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    @inline(__always)
    mutating func skipWhitespace() { position = JSONWords.endOfWhitespace(in: bytes, from: position) }

    /// A problem at the current position, with its line and column.
    private func problem(_ message: String) -> JSONTextError {
        let end = min(position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONTextError(line: line, column: end - lineStart + 1, message: message)
    }
}
