/// A small deterministic writer of HTML and SVG markup that is also
/// well-formed XML: every element is closed, attributes are written in the
/// order given, and every text and attribute value is escaped.
///
/// The same input always gives the same bytes, so reports can be golden
/// files. Text that comes from files (task titles, region and device names)
/// goes through ``text(_:)`` or an attribute value and is never markup: a
/// title `<script>alert(1)</script>` is shown as those characters.
///
/// ```swift
/// var svg = Markup()
/// svg.start("g", ["class": "track"])
/// svg.leaf("circle", ["cx": "10", "cy": "20", "r": "3"])
/// svg.end("g")
/// // <g class="track"><circle cx="10" cy="20" r="3"/></g>
/// ```
public struct Markup: Sendable {
    /// The markup written so far.
    public private(set) var text = ""

    /// An empty writer.
    public init() {}

    /// Opens `name` with `attributes` (in order; escaped).
    public mutating func start(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<" + name
        appendAttributes(attributes)
        text += ">"
    }

    /// Closes `name`.
    public mutating func end(_ name: String) {
        text += "</" + name + ">"
    }

    /// An empty element, `<name …/>`.
    public mutating func leaf(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<" + name
        appendAttributes(attributes)
        text += "/>"
    }

    /// `<name …>text</name>` with `content` escaped.
    public mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text content: String) {
        start(name, attributes)
        text(content)
        end(name)
    }

    /// Escaped character data.
    public mutating func text(_ content: String) {
        text += Escape.text(content)
    }

    /// A line break between elements, to keep the file readable in a diff.
    public mutating func newline() {
        text += "\n"
    }

    /// Appends markup another writer produced (already escaped).
    public mutating func append(_ other: Markup) {
        text += other.text
    }

    /// Appends trusted markup written by this module (a constant
    /// stylesheet, a path's data): never text from a file.
    mutating func appendRaw(_ markup: String) {
        text += markup
    }

    private mutating func appendAttributes(_ attributes: KeyValuePairs<String, String>) {
        for (name, value) in attributes {
            text += " " + name + "=\"" + Escape.attribute(value) + "\""
        }
    }
}

/// Escaping for text and attribute values in HTML and XML alike.
public enum Escape {
    /// `&`, `<` and `>` as character references; control characters other
    /// than tab and line breaks (not allowed in XML 1.0) as U+FFFD.
    public static func text(_ string: String) -> String {
        escape(string, quotes: false)
    }

    /// ``text(_:)`` plus both quote characters, for a value between quotes.
    public static func attribute(_ string: String) -> String {
        escape(string, quotes: true)
    }

    private static func escape(_ string: String, quotes: Bool) -> String {
        guard string.utf8.contains(where: { needsWork($0, quotes: quotes) }) else { return string }
        var result = ""
        result.reserveCapacity(string.utf8.count + 16)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where quotes: result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsWork(_ byte: UInt8, quotes: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): return true
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return quotes
        case 0xEF: return true  // possibly U+FFFE or U+FFFF
        default: return byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
        }
    }
}
