import Foundation

/// A shard's item lines written and read directly: through `JSONEncoder`
/// and `JSONDecoder`, a shard of 100 000 devices spent half its time
/// encoding its lines, and the merge read some 50 000 lines a second.
extension ShardItem {
    /// Appends the item's line, `{"item":{…}}` without a newline: the
    /// keys and values `JSONEncoder` writes of `ShardLine(item: self)`,
    /// the keys in a fixed order (which a JSON reader does not mind) and
    /// numbers in Swift's shortest exact form; `false`, with nothing appended,
    /// when a number is not finite: JSON has no such number, and the
    /// encoder's error says so.
    public func appendLine(to bytes: inout [UInt8]) -> Bool {
        guard position.allSatisfy(\.isFinite), transitions?.allSatisfy(\.distance.isFinite) ?? true else {
            return false
        }
        var line = FieldWriter(taking: &bytes)
        line.open(#"{"item":{"#)
        if let input { line.field("input", input) }
        if let finishing { line.field("finishing", string: finishing) }
        line.field("feed", feed)
        line.field("outcome", string: outcome.rawValue)
        if let time { line.field("time", time) }
        line.field("position", position)
        if let device { line.field("device", string: device) }
        if let transitions {
            line.key("transitions")
            line.append(UInt8(ascii: "["))
            for (index, transition) in transitions.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                line.open("{")
                line.field("kind", string: transition.kind.rawValue)
                line.field("time", transition.time)
                line.field("region", transition.region)
                line.field("distance", transition.distance)
                if let unmonitored = transition.unmonitored { line.field("unmonitored", unmonitored) }
                line.close("}")
            }
            line.append(UInt8(ascii: "]"))
        }
        if let inaccurate { line.field("inaccurate", inaccurate) }
        line.close("}}")
        swap(&bytes, &line.bytes)
        return true
    }

    /// The item of a line as ``appendLine(to:)`` writes it, its keys in
    /// any order; `nil` for any other text (spaces, `null`, escapes in a
    /// string, an unknown or repeated key, a number that is not a plain
    /// integer where one is due), which the caller reads with
    /// `JSONDecoder`, the reference that tests hold this to.
    public static func scanned(from line: UnsafeRawBufferPointer) -> ShardItem? {
        var scanner = ShardLineScanner(line)
        guard scanner.take(#"{"item":"#), let item = scanner.item(), scanner.take("}"), scanner.isAtEnd else {
            return nil
        }
        return item
    }
}

/// Writes a line's JSON objects: a comma before each field but an
/// object's first.
private struct FieldWriter {
    var bytes: [UInt8] = []
    /// Whether the next field is its object's first.
    private var first = true

    /// A writer that appends to `bytes`, taken (not copied) until handed back.
    init(taking bytes: inout [UInt8]) { swap(&self.bytes, &bytes) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    private mutating func append(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    /// Opens an object (or two, `{"item":{`).
    mutating func open(_ text: StaticString) {
        append(text)
        first = true
    }

    /// Closes an object (or two), which counts as a field of the one around it.
    mutating func close(_ text: StaticString) {
        append(text)
        first = false
    }

    /// Starts the field `name`.
    mutating func key(_ name: StaticString) {
        if !first { append(UInt8(ascii: ",")) }
        first = false
        append(UInt8(ascii: "\""))
        append(name)
        append(#"":"#)
    }

    mutating func field(_ name: StaticString, string value: String) {
        key(name)
        JSONLine.appendQuoted(value, to: &bytes)
    }

    /// A value written as its description, which is its JSON text.
    mutating func field(_ name: StaticString, _ value: some JSONLiteral) {
        key(name)
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Values written as their descriptions, in an array.
    mutating func field(_ name: StaticString, _ values: [some JSONLiteral]) {
        key(name)
        append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: value.description.utf8)
        }
        append(UInt8(ascii: "]"))
    }
}

/// A value whose description is its JSON text: integers, `true` and
/// `false`, and finite numbers (Swift's shortest form that reads back
/// exactly).
private protocol JSONLiteral: CustomStringConvertible {}

extension Int: JSONLiteral {}
extension Int64: JSONLiteral {}
extension Double: JSONLiteral {}
extension Bool: JSONLiteral {}
