/// One non-blank, non-comment line of delimited text, cut into fields.
package struct DelimitedRow: Equatable, Sendable {
    /// The 1-based line number in the file.
    package var line: Int
    /// The fields, without surrounding blanks and quotes.
    package var fields: [String]
    /// The byte between the fields: `,` `;` tab or `|`.
    package var delimiter: UInt8

    /// Creates a row.
    package init(line: Int, fields: [String], delimiter: UInt8 = 0x2C) {
        self.line = line
        self.fields = fields
        self.delimiter = delimiter
    }

    /// The number in field `index`, with a decimal point, or with a decimal
    /// comma where the fields are not comma-separated (`48,1` beside `;`,
    /// as spreadsheets write numbers in much of Europe); `nil` when it is
    /// none, or beyond the row.
    package func number(at index: Int) -> Double? {
        guard index < fields.count else { return nil }
        let text = fields[index]
        if let value = Double(text) { return value }
        guard delimiter != 0x2C, !text.contains("."), text.filter({ $0 == "," }).count == 1 else { return nil }
        return Double(String(text.map { $0 == "," ? "." : $0 }))
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
        var stream = DelimitedRowStream()
        return bytes.withUnsafeBytes { stream.rows(in: $0) } + stream.finish()
    }
}

/// ``DelimitedRowReader`` over a file read in chunks: each chunk gives the
/// rows it completes, so a file of ten million rows is never all in memory.
package struct DelimitedRowStream {
    private var transcoder = TextTranscoder()
    private var framer = LineFramer(maximumLength: Int.max)
    private var collector = RowCollector()

    /// A stream at the start of a file.
    package init() {}

    /// The rows that `chunk`, the next bytes of the file, completes.
    package mutating func rows(in chunk: UnsafeRawBufferPointer) -> [DelimitedRow] {
        framing { transcoder, framer, collector in transcoder.transcode(chunk) { framer.feed($0, to: &collector) } }
    }

    /// The rows left at the end of the file.
    package mutating func finish() -> [DelimitedRow] {
        framing { transcoder, framer, collector in
            transcoder.finish { framer.feed($0, to: &collector) }
            framer.finish(to: &collector)
        }
    }

    /// Runs `body` on the three stages taken out as locals (the
    /// transcoder's callback feeds the framer), and returns the rows.
    private mutating func framing(
        _ body: (inout TextTranscoder, inout LineFramer, inout RowCollector) -> Void
    ) -> [DelimitedRow] {
        var stages = (TextTranscoder(), LineFramer(maximumLength: Int.max), RowCollector())
        swap(&stages.0, &transcoder)
        swap(&stages.1, &framer)
        swap(&stages.2, &collector)
        body(&stages.0, &stages.1, &stages.2)
        swap(&stages.0, &transcoder)
        swap(&stages.1, &framer)
        swap(&stages.2, &collector)
        return collector.take()
    }
}

/// Splits the lines a ``LineFramer`` cuts into ``DelimitedRow``s.
private struct RowCollector: LineHandler {
    private var rows: [DelimitedRow] = []
    private var delimiter: UInt8?
    private var starts: [Int] = []
    private var ends: [Int] = []

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation) {
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), bytes[first] != 0x23 else { return }
        let delimiter = self.delimiter ?? CSVDelimiter.detect(bytes)
        self.delimiter = delimiter
        CSVFieldSplitter.split(bytes, delimiter: delimiter, starts: &starts, ends: &ends)
        let fields = zip(starts, ends).map { CSVFieldSplitter.trimmedText(bytes, $0, $1) }
        rows.append(DelimitedRow(line: location.line, fields: fields, delimiter: delimiter))
    }

    /// The rows collected since the last call.
    mutating func take() -> [DelimitedRow] {
        defer { rows = [] }
        return rows
    }

    mutating func overlongLine(limit: Int, at location: FeedLocation) {
        preconditionFailure("no line is longer than Int.max bytes")
    }
}
