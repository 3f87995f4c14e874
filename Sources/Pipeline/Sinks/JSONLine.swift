import Foundation
import Recurrence

/// Builds one JSON object as text, fields in the order they are added.
///
/// Output is one line, keys and strings escaped per RFC 8259; numbers are
/// written with Swift's shortest round-tripping form.
public struct JSONLine {
    private var text = "{"
    private var first = true

    /// An empty object.
    public init() {}

    /// Adds a string field (`null` when nil).
    public mutating func add(_ key: String, _ value: String?) {
        field(key, value.map(JSONLine.quoted) ?? "null")
    }

    /// Adds a number field (`null` when nil or not finite).
    public mutating func add(_ key: String, _ value: Double?) { field(key, Self.number(value)) }

    /// Adds an integer field.
    public mutating func add(_ key: String, _ value: Int) { field(key, String(value)) }

    /// Adds an integer field (`null` when nil).
    public mutating func add(_ key: String, _ value: Int?) { field(key, value.map { String($0) } ?? "null") }

    /// Adds a date field as UTC RFC 3339 text (`null` when nil).
    public mutating func add(_ key: String, date: Date?) { add(key, date.map(RFC3339Text.format)) }

    /// Adds a Boolean field.
    public mutating func add(_ key: String, _ value: Bool) { field(key, value ? "true" : "false") }

    /// Adds a nested object.
    public mutating func add(_ key: String, object: JSONLine) { field(key, object.string) }

    /// Adds an array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        field(key, "[" + strings.map(JSONLine.quoted).joined(separator: ",") + "]")
    }

    /// Adds an interval as `[lower, upper]` (`null` when nil).
    public mutating func add(_ key: String, interval: ClosedRange<Double>?) {
        guard let interval else { return field(key, "null") }
        field(key, "[" + Self.number(interval.lowerBound) + "," + Self.number(interval.upperBound) + "]")
    }

    /// The finished object.
    public var string: String { text + "}" }

    private mutating func field(_ key: String, _ json: String) {
        if !first { text += "," }
        first = false
        text += JSONLine.quoted(key) + ":" + json
    }

    /// A JSON number for `value` (`null` when nil or not finite).
    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : "\(value)"
    }

    /// A JSON string literal for `value`.
    public static func quoted(_ value: String) -> String {
        // Most names need no escape: then the text goes in whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
