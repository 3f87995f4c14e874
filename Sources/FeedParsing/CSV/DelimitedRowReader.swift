/// One non-blank, non-comment line of delimited text, cut into fields.
package struct DelimitedRow: Equatable, Sendable {
    /// The 1-based line number in the file.
    package var line: Int
    /// The fields, without surrounding blanks and quotes.
    package var fields: [String]

    /// Creates a row.
    package init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// Reads delimited text into rows of fields by the CSV feed decoder's rules,
/// for files that hold something other than fixes (regions).
///
/// The delimiter is the most frequent of `,` `;` tab `|` in the first row
/// (``CSVDelimiter``); a UTF-8 or UTF-16 byte-order mark is honoured; lines
/// end at LF, CRLF or CR; fields may be double-quoted (``CSVFieldSplitter``)
/// but may not span lines; blank lines and lines starting with `#` are
/// skipped. Header names are matched through ``CSVField``.
package enum DelimitedRowReader {
    /// The rows of a whole file, in order.
    package static func rows(in bytes: [UInt8]) -> [DelimitedRow] {
        var transcoder = TextTranscoder()
        var framer = LineFramer(maximumLength: Int.max)
        var collector = RowCollector()
        bytes.withUnsafeBytes { chunk in transcoder.transcode(chunk) { framer.feed($0, to: &collector) } }
        transcoder.finish { framer.feed($0, to: &collector) }
        framer.finish(to: &collector)
        return collector.rows
    }
}

/// Splits the lines a ``LineFramer`` cuts into ``DelimitedRow``s.
private struct RowCollector: LineHandler {
    var rows: [DelimitedRow] = []
    private var delimiter: UInt8?
    private var starts: [Int] = []
    private var ends: [Int] = []

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), bytes[first] != 0x23 else { return }
        let delimiter = self.delimiter ?? CSVDelimiter.detect(bytes)
        self.delimiter = delimiter
        CSVFieldSplitter.split(bytes, delimiter: delimiter, starts: &starts, ends: &ends)
        let fields = zip(starts, ends).map { CSVFieldSplitter.trimmedText(bytes, $0, $1) }
        rows.append(DelimitedRow(line: location.line, fields: fields))
    }

    mutating func overlongLine(limit: Int, at location: FeedLocation) {
        preconditionFailure("no line is longer than Int.max bytes")
    }
}
