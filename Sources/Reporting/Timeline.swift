import GeoCore

/// Rows of bars and marks over a common time axis, as SVG: one row per
/// task in a replay report (cycles as bars, reminders and suppressions as
/// marks), one per region in an evaluation (visits, TP/FP/FN ticks).
public struct Timeline: Sendable {
    /// A bar from one time to another.
    public struct Span: Hashable, Sendable {
        /// Where it begins (clipped to the axis when earlier).
        public var start: Timestamp
        /// Where it ends (clipped to the axis when later).
        public var end: Timestamp
        /// How it is drawn.
        public var style: SpanStyle
        /// The hover text.
        public var tooltip: String

        /// A bar.
        public init(start: Timestamp, end: Timestamp, style: SpanStyle, tooltip: String) {
            self.start = start
            self.end = end
            self.style = style
            self.tooltip = tooltip
        }
    }

    /// An event at a time.
    public struct Mark: Hashable, Sendable {
        /// When.
        public var time: Timestamp
        /// How it is drawn.
        public var style: MarkStyle
        /// The hover text.
        public var tooltip: String

        /// A mark.
        public init(time: Timestamp, style: MarkStyle, tooltip: String) {
            self.time = time
            self.style = style
            self.tooltip = tooltip
        }
    }

    /// One row.
    public struct Row: Hashable, Sendable {
        /// The name at the left, in bold (cut to fit; whole in its tooltip).
        public var label: String
        /// A second, smaller line under the name.
        public var detail: String
        /// The bars, drawn first.
        public var spans: [Span]
        /// The marks, drawn over the bars in order.
        public var marks: [Mark]
        /// A thin strip under the bars (what the data looked like then:
        /// an evaluation's fix density and accuracy).
        public var strip: [Cell]

        /// A row.
        public init(label: String, detail: String, spans: [Span], marks: [Mark], strip: [Cell] = []) {
            self.label = label
            self.detail = detail
            self.spans = spans
            self.marks = marks
            self.strip = strip
        }
    }

    /// A piece of a row's strip: a colour from one time to another.
    public struct Cell: Hashable, Sendable {
        /// Where it begins.
        public var start: Timestamp
        /// Where it ends.
        public var end: Timestamp
        /// A CSS colour.
        public var colour: String
        /// The hover text.
        public var tooltip: String

        /// A cell.
        public init(start: Timestamp, end: Timestamp, colour: String, tooltip: String) {
            self.start = start
            self.end = end
            self.colour = colour
            self.tooltip = tooltip
        }
    }

    /// The time axis.
    public var start: Timestamp, end: Timestamp
    /// The rows, top to bottom.
    public var rows: [Row]

    /// A timeline from `start` to `end`.
    public init(start: Timestamp, end: Timestamp, rows: [Row]) {
        self.start = start
        self.end = end
        self.rows = rows
    }

    static let labelWidth = 250.0, rowHeight = 48.0, top = 34.0

    /// The timeline as an `<svg>` element `width` pixels wide.
    public func svg(width: Double = 960, title: String = "Timeline") -> Markup {
        let height = Self.top + Double(rows.count) * Self.rowHeight + 8
        let scale = TimeScale(from: start, to: end, left: Self.labelWidth + 10, right: width - 16)
        var svg = Markup()
        let w = Format.number(width), h = Format.number(height)
        svg.start("svg", ["class": "timeline", "viewBox": "0 0 " + w + " " + h, "width": w, "height": h, "role": "img"])
        svg.element("title", text: title)
        svg.newline()
        for index in rows.indices where index % 2 == 0 {
            svg.leaf(
                "rect",
                [
                    "x": "0", "y": Format.number(Self.top + Double(index) * Self.rowHeight), "width": w,
                    "height": Format.number(Self.rowHeight), "class": "band",
                ])
        }
        Axis.time(
            scale, y: Self.top, bottom: height - 8, tickCount: max(2, Int((scale.right - scale.left) / 110)), into: &svg)
        for (index, row) in rows.enumerated() {
            draw(row, top: Self.top + Double(index) * Self.rowHeight, scale: scale, into: &svg)
        }
        svg.end("svg")
        svg.newline()
        return svg
    }

    private func draw(_ row: Row, top: Double, scale: TimeScale, into svg: inout Markup) {
        svg.start("g", ["class": "row"])
        svg.start("text", ["x": "8", "y": Format.number(top + 20), "class": "label"])
        svg.text(Self.cut(row.label, to: 30))
        svg.element("title", text: row.label)
        svg.end("text")
        svg.element("text", ["x": "8", "y": Format.number(top + 38), "class": "detail"], text: Self.cut(row.detail, to: 38))
        let barTop = top + 14, barHeight = 20.0
        for span in row.spans {
            let x0 = max(scale.position(span.start), scale.left), x1 = min(scale.position(span.end), scale.right)
            guard x1 > x0 else { continue }
            svg.start(
                "rect",
                [
                    "x": Format.number(x0), "y": Format.number(barTop), "width": Format.number(max(x1 - x0, 1)),
                    "height": Format.number(barHeight), "fill": span.style.fill, "stroke": span.style.stroke,
                ])
            svg.element("title", text: span.tooltip)
            svg.end("rect")
        }
        for cell in row.strip {
            let x0 = max(scale.position(cell.start), scale.left), x1 = min(scale.position(cell.end), scale.right)
            guard x1 > x0 else { continue }
            svg.start(
                "rect",
                [
                    "x": Format.number(x0), "y": Format.number(barTop + barHeight + 2),
                    // A little wider, so that neighbouring cells join.
                    "width": Format.number(max(x1 - x0 + 0.6, 1)),
                    "height": "5", "fill": cell.colour,
                ])
            svg.element("title", text: cell.tooltip)
            svg.end("rect")
        }
        for mark in row.marks {
            let x = scale.position(mark.time)
            guard x >= scale.left - 1, x <= scale.right + 1 else { continue }
            mark.style.draw(at: PlanePoint(x: x, y: barTop + barHeight / 2), tooltip: mark.tooltip, into: &svg)
        }
        svg.end("g")
        svg.newline()
    }

    /// `text` cut to `count` characters with an ellipsis.
    static func cut(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(count - 1)) + "…"
    }
}

/// How a timeline bar is drawn.
public struct SpanStyle: Hashable, Sendable {
    /// What the legend calls it.
    public var label: String
    /// A CSS colour.
    public var fill: String
    /// A CSS colour for the outline.
    public var stroke: String

    /// A bar style.
    public init(label: String, fill: String, stroke: String) {
        self.label = label
        self.fill = fill
        self.stroke = stroke
    }

    /// Its legend entry.
    public var legendEntry: Legend.Entry { .area(fill: fill, stroke: stroke, label: label) }
}
