/// A table of text, as HTML: the summary of a replay, the settings of a
/// sweep. Columns whose every cell is a number are right-aligned.
public struct ReportTable: Hashable, Sendable {
    /// The column headings.
    public var columns: [String]
    /// The rows, each as many cells as there are columns.
    public var rows: [[String]]

    /// A table.
    public init(columns: [String], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// `<table>…</table>`.
    public var markup: Markup {
        let numeric = columns.indices.map { column in
            !rows.isEmpty && rows.allSatisfy { column < $0.count && Self.isNumber($0[column]) }
        }
        var html = Markup()
        html.start("table")
        html.start("thead")
        html.start("tr")
        for (index, column) in columns.enumerated() {
            if numeric[index] { html.element("th", ["class": "num"], text: column) } else { html.element("th", text: column) }
        }
        html.end("tr")
        html.end("thead")
        html.start("tbody")
        for row in rows {
            html.start("tr")
            for (index, cell) in row.enumerated() {
                if index < numeric.count, numeric[index] {
                    html.element("td", ["class": "num"], text: cell)
                } else {
                    html.element("td", text: cell)
                }
            }
            html.end("tr")
            html.newline()
        }
        html.end("tbody")
        html.end("table")
        html.newline()
        return html
    }

    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" || $0 == " " }
    }
}
