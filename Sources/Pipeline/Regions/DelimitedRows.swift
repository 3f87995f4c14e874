/// Splits delimited text (CSV with `,`, `;` or tab) into rows of fields,
/// with 1-based line numbers; tolerates CRLF, blank lines, a UTF-8 BOM and
/// double-quoted fields (a quoted field may not span lines).
struct DelimitedRows {
    /// The delimiter found in the first non-blank line.
    let delimiter: UInt8
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        self.bytes = Array(bytes[start...])
        let firstLine = self.bytes.prefix { $0 != 0x0A }
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09]
        delimiter = candidates.max { a, b in
            firstLine.lazy.filter { $0 == a }.count < firstLine.lazy.filter { $0 == b }.count
        } ?? 0x2C
    }

    /// Calls `body(line, fields)` for every non-blank line.
    func forEachRow(_ body: (Int, [Substring]) -> Void) {
        var line = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            line += 1
            var stop = end
            if stop > start, bytes[stop - 1] == 0x0D { stop -= 1 }
            if stop > start {
                let text = String(decoding: bytes[start..<stop], as: UTF8.self)
                body(line, split(text, hasQuotes: bytes[start..<stop].contains(0x22)))
            }
            start = end + 1
        }
    }

    private func split(_ text: String, hasQuotes: Bool) -> [Substring] {
        let separator = Character(Unicode.Scalar(delimiter))
        guard hasQuotes else {
            return text.split(separator: separator, omittingEmptySubsequences: false)
                .map { $0.trimmingSpaces }
        }
        var fields: [Substring] = []
        var current = ""
        var quoted = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                fields.append(Substring(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(Substring(current))
        return fields.map { $0.trimmingSpaces }
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: Substring {
        var slice = self
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return slice
    }
}

/// Loose header matching: lower-cased, with spaces, dashes and dots removed.
func normalizedHeader(_ name: Substring) -> String {
    String(name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "." })
}
