import Foundation
import GeoCore
import Recurrence

/// Builds one JSON object as text, fields in the order they are added.
///
/// Output is one line, keys and strings escaped per RFC 8259; numbers are
/// written with Swift's shortest round-tripping form.
public struct JSONLine {
    /// The UTF-8 text so far, without the closing brace. Built as bytes:
    /// joining strings made a reminder line cost about 34k instructions.
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    /// A field name quoted once, with its colon (`"time":`), for lines
    /// written many times: quoting a name for every line cost about 230
    /// instructions a field.
    public struct Key: Sendable {
        fileprivate let quoted: [UInt8]

        /// The key `name`.
        public init(_ name: String) {
            var quoted: [UInt8] = []
            JSONLine.appendQuoted(name, to: &quoted)
            quoted.append(UInt8(ascii: ":"))
            self.quoted = quoted
        }
    }

    /// An empty object.
    public init() {
        // Room for a reminder line at once, instead of growing four times.
        bytes.reserveCapacity(320)
    }

    private init(text: [UInt8]) { bytes = text }

    /// Writes the object that `build` fills, and a newline, to `output`.
    /// The object is built at the end of the writer's own buffer: a line
    /// made on its own cost an allocation and a copy.
    public static func writeLine(to output: ByteWriter, _ build: (inout JSONLine) -> Void) {
        var line = JSONLine(text: [])
        swap(&line.bytes, &output.bytes)
        line.bytes.append(UInt8(ascii: "{"))
        build(&line)
        line.bytes.append(UInt8(ascii: "}"))
        line.bytes.append(0x0A)
        swap(&line.bytes, &output.bytes)
        output.flushIfFull()
    }

    /// Adds a string field (`null` when nil).
    public mutating func add(_ key: String, _ value: String?) {
        start(key)
        string(value)
    }

    /// Adds a string field (`null` when nil).
    public mutating func add(_ key: Key, _ value: String?) {
        start(key)
        string(value)
    }

    /// Adds a number field (`null` when nil or not finite).
    public mutating func add(_ key: String, _ value: Double?) { field(key, Self.number(value)) }

    /// Adds a number field (`null` when nil or not finite).
    public mutating func add(_ key: Key, _ value: Double?) { field(key, Self.number(value)) }

    /// Adds an integer field.
    public mutating func add(_ key: String, _ value: Int) { field(key, String(value)) }

    /// Adds an integer field.
    public mutating func add(_ key: Key, _ value: Int) { field(key, String(value)) }

    /// Adds an integer field (`null` when nil).
    public mutating func add(_ key: String, _ value: Int?) { field(key, value.map { String($0) } ?? "null") }

    /// Adds a date field as UTC RFC 3339 text (`null` when nil).
    public mutating func add(_ key: String, date: Date?) {
        start(key)
        self.date(date)
    }

    /// Adds a date field as UTC RFC 3339 text (`null` when nil).
    public mutating func add(_ key: Key, date: Date?) {
        start(key)
        self.date(date)
    }

    /// Adds a boolean field.
    public mutating func add(_ key: String, _ value: Bool) { field(key, value ? "true" : "false") }

    /// Adds a nested object.
    public mutating func add(_ key: String, object: JSONLine) {
        start(key)
        bytes.append(contentsOf: object.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        start(key)
        bytes.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(string, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds a `[low, high]` pair (`null` when nil).
    public mutating func add(_ key: String, interval: ClosedRange<Double>?) {
        guard let interval else { return field(key, "null") }
        field(key, "[" + Self.number(interval.lowerBound) + "," + Self.number(interval.upperBound) + "]")
    }

    /// The object's text.
    public var string: String {
        String(unsafeUninitializedCapacity: bytes.count + 1) { text in
            _ = text.initialize(from: bytes)
            text[bytes.count] = UInt8(ascii: "}")
            return bytes.count + 1
        }
    }

    /// Writes the object's text and a newline to `output`, with no
    /// string made on the way.
    public func writeLine(to output: ByteWriter) {
        output.bytes.append(contentsOf: bytes)
        output.bytes.append(UInt8(ascii: "}"))
        output.bytes.append(0x0A)
        output.flushIfFull()
    }

    /// Writes the separator and the quoted key with its colon.
    private mutating func start(_ key: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes the separator and the quoted key with its colon.
    private mutating func start(_ key: Key) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(contentsOf: key.quoted)
    }

    /// A field whose value is JSON text already.
    private mutating func field(_ key: String, _ json: String) {
        start(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// A field whose value is JSON text already.
    private mutating func field(_ key: Key, _ json: String) {
        start(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// A string value, quoted (`null` when nil).
    private mutating func string(_ value: String?) {
        if let value { Self.appendQuoted(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// A date value as UTC RFC 3339 text (`null` when nil).
    private mutating func date(_ date: Date?) {
        // Written straight into the line in RFC3339Text.format's range.
        guard let date, abs(date.timeIntervalSince1970) < 9.2e9 else { return string(date.map(RFC3339Text.format)) }
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(RFC3339Text.timestamp(date), to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : "\(value)"
    }

    /// `value` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else as it is.
    public static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``quoted(_:)``'s UTF-8 to `bytes`. Every byte to escape is
    /// ASCII, so the text is read byte by byte (the bytes of other
    /// characters go through unchanged), and most names, which need no
    /// escape (checked eight bytes at a time), go in whole.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        bytes.append(quote)
        let plain =
            value.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !ByteWords.needsJSONEscape(UnsafeRawBufferPointer(utf8)) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if plain {
            bytes.append(quote)
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            let escape: UInt8
            switch byte {
            case quote, backslash: escape = byte
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case ..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
                continue
            default:
                bytes.append(byte)
                continue
            }
            bytes.append(backslash)
            bytes.append(escape)
        }
        bytes.append(quote)
    }
}
