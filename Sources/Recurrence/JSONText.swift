import Foundation

/// A JSON value as the tasks file reader takes it apart.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The text of a string value.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number of a number value.
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The elements of an array value.
    var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object value.
    var object: JSONObject? {
        if case .object(let members) = self { return members }
        return nil
    }
}

/// The members of a JSON object in the order written; a key written twice
/// means its last value (as `JSONSerialization` reads it).
struct JSONObject: Sendable {
    var members: [(key: String, value: JSONValue)] = []

    /// The value of `key`.
    subscript(key: String) -> JSONValue? { members.last { $0.key == key }?.value }

    /// The distinct keys.
    var keys: [String] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }
}

/// Where a JSON text is broken, and how.
struct JSONTextError: Error, Sendable, CustomStringConvertible {
    /// 1-based line and column (in bytes) of the problem.
    var line: Int
    var column: Int
    var message: String

    var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 reader over UTF-8 bytes that reads the elements of a
/// large array as it checks them, so a file of a million tasks is never a
/// tree of a million objects, and its pieces can be read on several threads.
///
/// ``readArray(ofMember:in:jobs:piecewiseMinimum:reader:)`` reads the whole
/// text once: it checks it (a large array in pieces on several threads)
/// and hands each element of the array under the top-level member to a
/// ``JSONElementReader``. Nesting is limited to 512 levels, so hostile
/// input cannot exhaust the stack.
enum JSONText {
    /// The deepest nesting read.
    static let maximumDepth = 512

    /// What the top level of a text is.
    enum Root {
        /// Not an object.
        case notAnObject
        /// An object without the member, or whose member is not an array.
        case noArray
        /// An object whose member is an array; its elements were read.
        case array
    }

    /// Checks `data` and, when its top-level member `name` (the last such
    /// member) is an array, reads that array's elements as they are
    /// checked, with readers that `makeReader` makes (one for each piece
    /// of an array of `piecewiseMinimum` bytes or more, checked on up to
    /// `jobs` threads).
    ///
    /// - Returns: what the top level is, and the readers in the array's
    ///   order (`nil` unless the member is an array).
    /// - Throws: ``JSONTextError`` for a text that is not JSON, or what a
    ///   reader throws.
    static func readArray<Reader: JSONElementReader>(
        ofMember name: String, in data: Data, jobs: Int, piecewiseMinimum: Int,
        reader makeReader: @Sendable (_ bytes: Int) -> Reader
    ) throws -> (root: Root, readers: [Reader]?) {
        func scan(_ buffer: UnsafeBufferPointer<UInt8>) throws -> (root: Root, readers: [Reader]?) {
            var checker = JSONScanner(buffer)
            let readers = try checker.checkDocument(
                findingMember: name, jobs: jobs, piecewiseMinimum: piecewiseMinimum, reader: makeReader)
            guard checker.rootIsObject else { return (.notAnObject, nil) }
            guard let readers else { return (.noArray, nil) }
            return (.array, readers)
        }
        if let transcoded = transcodedToUTF8(data) { return try transcoded.withUnsafeBufferPointer(scan) }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            return try scan(bom ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes)
        }
    }

    /// UTF-16 or UTF-32 text (by its byte-order mark, or the zero bytes of
    /// an ASCII start, as `JSONSerialization` detects them) as UTF-8
    /// without the mark; `nil` for anything else.
    private static func transcodedToUTF8(_ data: Data) -> [UInt8]? {
        guard data.count >= 2 else { return nil }
        let head = Array(data.prefix(4)) + [1, 1, 1, 1]
        let encoding: String.Encoding? =
            switch (head[0], head[1], head[2], head[3]) {
            case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): .utf32BigEndian
            case (0xFF, 0xFE, 0, 0), (_, 0, 0, 0): .utf32LittleEndian
            case (0xFE, 0xFF, _, _), (0, _, _, _): .utf16BigEndian
            case (0xFF, 0xFE, _, _), (_, 0, _, _): .utf16LittleEndian
            default: nil
            }
        guard let encoding, var text = String(data: data, encoding: encoding) else { return nil }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Array(text.utf8)
    }
}
