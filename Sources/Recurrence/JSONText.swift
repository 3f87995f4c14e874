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

/// A strict RFC 8259 reader over UTF-8 bytes that hands out the elements
/// of a large array a run at a time, so a file of a million tasks is never
/// a tree of a million objects, and runs can be read on several threads.
///
/// ``checkedArray(ofMember:in:jobs:piecewiseMinimum:_:)`` reads the
/// whole text once to check it (nothing is kept; a large array in pieces on
/// several threads), then parses the array under the top-level member in
/// runs of consecutive elements. Nesting is limited to 512 levels, so
/// hostile input cannot exhaust the stack.
enum JSONText {
    /// The deepest nesting read.
    static let maximumDepth = 512
    /// The most elements of a run (runs end early where the text was
    /// checked in pieces, and at the array's end).
    static let runLength = 256

    /// What the top level of a text is.
    enum Root {
        /// Not an object.
        case notAnObject
        /// An object without the member, or whose member is not an array.
        case noArray
        /// An object whose member is an array; its elements were read.
        case array
    }

    /// Checks `data`, then, when its top-level member `name` (the last
    /// such member) is an array, hands `read` that array's elements in runs
    /// (see ``CheckedArray``), valid during the call. An array of
    /// `piecewiseMinimum` bytes or more is checked in pieces on up to `jobs`
    /// threads.
    ///
    /// - Returns: what the top level is, and what `read` returned (`nil`
    ///   unless the member is an array).
    /// - Throws: ``JSONTextError`` for a text that is not JSON (before
    ///   `read` is called), or what `read` throws.
    static func checkedArray<Result>(
        ofMember name: String, in data: Data, jobs: Int, piecewiseMinimum: Int,
        _ read: (CheckedArray) throws -> Result
    ) throws -> (root: Root, result: Result?) {
        func scan(_ buffer: UnsafeBufferPointer<UInt8>) throws -> (root: Root, result: Result?) {
            var checker = JSONScanner(buffer)
            let array = try checker.checkDocument(
                findingMember: name, runsOf: runLength, jobs: jobs, piecewiseMinimum: piecewiseMinimum)
            guard checker.rootIsObject else { return (.notAnObject, nil) }
            guard let array else { return (.noArray, nil) }
            return (.array, try read(CheckedArray(bytes: SharedBytes(buffer: buffer), runs: array)))
        }
        if let transcoded = transcodedToUTF8(data) { return try transcoded.withUnsafeBufferPointer(scan) }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            return try scan(bom ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes)
        }
    }

    /// The checked text, read (never written) by the runs' threads while
    /// ``checkedArray(ofMember:in:jobs:piecewiseMinimum:_:)`` holds it.
    fileprivate struct SharedBytes: @unchecked Sendable {
        let buffer: UnsafeBufferPointer<UInt8>
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

/// The array under a checked text's member, as runs of consecutive
/// elements: several threads can read it at once, each taking its own
/// runs (only while ``JSONText/checkedArray(ofMember:in:jobs:piecewiseMinimum:_:)``
/// holds the text).
struct CheckedArray: Sendable {
    fileprivate let bytes: JSONText.SharedBytes
    private let runs: [(start: Int, count: Int)]
    /// The position in the array of each run's first element.
    let firsts: [Int]
    /// The number of elements.
    let count: Int

    fileprivate init(bytes: JSONText.SharedBytes, runs: [(start: Int, count: Int)]) {
        self.bytes = bytes
        self.runs = runs
        var counted = 0
        firsts = runs.map { run in
            defer { counted += run.count }
            return counted
        }
        count = counted
    }

    /// The number of runs.
    var runCount: Int { runs.count }

    /// The elements of run `run` (`0..<runCount`), in order.
    func elements(ofRun run: Int) -> JSONElements {
        JSONElements(scanner: JSONScanner(bytes.buffer, at: runs[run].start), remaining: runs[run].count)
    }
}

/// The elements of one run of an array, in order.
struct JSONElements {
    fileprivate var scanner: JSONScanner
    fileprivate var remaining: Int

    /// The next element, read by `direct` from its checked bytes or, when
    /// `direct` gives up (answers `nil`), by `tree` from its value; `nil`
    /// after the run's last.
    ///
    /// - Throws: what `tree` throws, or ``JSONTextError`` (never for a
    ///   checked text).
    mutating func next<Element>(
        direct: (inout CheckedJSONCursor) -> Element?, tree: (JSONValue) throws -> Element
    ) throws -> Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try scanner.element(direct: direct, tree: tree)
    }
}
