/// The check of a plainly valid value in one loop: most of a tasks file's
/// check (JSONArrayCheck.swift) without a call and a `try` per level,
/// member and element.
extension JSONScanner {
    /// The deepest nesting the quick check follows (one bit a level).
    private static let quickDepth = 64

    /// ``skipValue()``, for a value it checks without a problem and that
    /// has no escape and no more than ``quickDepth`` levels: `true`, with
    /// the position where ``skipValue()`` leaves it. `false`, with the
    /// position anywhere, for any other value, which ``skipValue()``
    /// must check from its start to name its problem (or read its
    /// escapes). Strings, numbers and literals are checked by the steps
    /// ``skipValue()`` takes.
    mutating func quickSkipValue() -> Bool {
        // One bit for each level open here, the innermost lowest: 1 for an object.
        var objects: UInt64 = 0
        var open = 0
        while true {
            skipWhitespace()
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open < Self.quickDepth, depth + open < JSONText.maximumDepth else { return false }
                position += 1
                skipWhitespace()
                let isObject = byte == UInt8(ascii: "{")
                if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                } else {
                    objects = objects << 1 | (isObject ? 1 : 0)
                    open += 1
                    guard !isObject || quickMemberName() else { return false }
                    continue
                }
            case UInt8(ascii: "\""):
                guard quickString() else { return false }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                guard (try? literal()) != nil else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard (try? number()) != nil else { return false }
            default:
                return false
            }
            // After a value: the levels it closes, up to the next comma.
            while open > 0 {
                skipWhitespace()
                guard let next = peek else { return false }
                position += 1
                let inObject = objects & 1 == 1
                if next == UInt8(ascii: ",") {
                    guard !inObject || quickMemberName() else { return false }
                    break
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                objects >>= 1
                open -= 1
            }
            if open == 0 { return true }
        }
    }

    /// A member's name with no escape, and the colon after it.
    private mutating func quickMemberName() -> Bool {
        skipWhitespace()
        guard peek == UInt8(ascii: "\""), quickString() else { return false }
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { return false }
        position += 1
        return true
    }

    /// A string with no escape, checked as ``skipValue()`` checks it.
    private mutating func quickString() -> Bool { (try? plainString()) != nil }
}
