/// A small line chart as SVG: series of points joined by lines (or
/// steps, for a distribution), faint background points, vertical
/// reference lines and a highlighted x value, on linear axes with grid
/// lines and titles.
///
/// ```swift
/// var chart = LineChart(x: 0...60, y: 0...1, xTitle: "interval (s)", yTitle: "score")
/// chart.series = [.init(label: "recall", colour: "#CC79A7", points: [.init(x: 1, y: 0.96), .init(x: 10, y: 0.89)])]
/// let svg = chart.svg(title: "Scores against interval")
/// ```
public struct LineChart: Sendable {
    /// A labelled line through points (data coordinates).
    public struct Series: Hashable, Sendable {
        /// What the legend calls it.
        public var label: String
        /// A CSS colour.
        public var colour: String
        /// The points, in order along the line.
        public var points: [PlanePoint]
        /// Drawn as steps (horizontal, then vertical), as a distribution
        /// function is; else straight lines with a dot at each point.
        public var stepped = false
        /// Dashed (a second line of the same colour family).
        public var dashed = false

        /// A series.
        public init(label: String, colour: String, points: [PlanePoint], stepped: Bool = false, dashed: Bool = false) {
            self.label = label
            self.colour = colour
            self.points = points
            self.stepped = stepped
            self.dashed = dashed
        }
    }

    /// A point drawn faintly under the lines (another setting's value).
    public struct FaintPoint: Hashable, Sendable {
        /// Where (data coordinates).
        public var point: PlanePoint
        /// A CSS colour.
        public var colour: String
        /// The hover text.
        public var tooltip: String

        /// A faint point.
        public init(point: PlanePoint, colour: String, tooltip: String) {
            self.point = point
            self.colour = colour
            self.tooltip = tooltip
        }
    }

    /// A vertical line at an x value, labelled at the top.
    public struct Reference: Hashable, Sendable {
        /// Where (data x).
        public var x: Double
        /// The label.
        public var label: String

        /// A reference line.
        public init(x: Double, label: String) {
            self.x = x
            self.label = label
        }
    }

    /// The data ranges shown.
    public var x: ClosedRange<Double>, y: ClosedRange<Double>
    /// The axis titles.
    public var xTitle: String, yTitle: String
    /// Ticks on the x axis at these values with these labels; `nil`:
    /// round values labelled with ``xLabel``.
    public var xTicks: [(value: Double, label: String)]?
    /// The label of a round x tick.
    public var xLabel: @Sendable (Double) -> String = { Format.number($0, decimals: 2) }
    /// The lines, drawn in order.
    public var series: [Series] = []
    /// Points drawn faintly first.
    public var faint: [FaintPoint] = []
    /// Vertical reference lines.
    public var references: [Reference] = []
    /// An x value marked with a band (the chosen setting).
    public var highlight: Double?

    /// An empty chart over `x` and `y`.
    public init(x: ClosedRange<Double>, y: ClosedRange<Double>, xTitle: String, yTitle: String) {
        self.x = x
        self.y = y
        self.xTitle = xTitle
        self.yTitle = yTitle
    }

    static let left = 58.0, right = 14.0, top = 22.0, bottom = 48.0

    /// The chart as an `<svg>` element.
    public func svg(width: Double = 470, height: Double = 250, title: String) -> Markup {
        let xScale = LinearScale(domain: x, from: Self.left, to: width - Self.right)
        let yScale = LinearScale(domain: y, from: height - Self.bottom, to: Self.top)
        var svg = Markup()
        let w = Format.number(width), h = Format.number(height)
        svg.start("svg", ["class": "chart", "viewBox": "0 0 " + w + " " + h, "width": w, "height": h, "role": "img"])
        svg.element("title", text: title)
        if let highlight {
            let position = xScale.position(highlight)
            svg.leaf(
                "rect",
                [
                    "x": Format.number(position - 9), "y": Format.number(Self.top), "width": "18",
                    "height": Format.number(height - Self.bottom - Self.top), "class": "highlight",
                ])
        }
        Axis.left(yScale, x: Self.left, right: width - Self.right, title: yTitle, tickCount: 4, into: &svg)
        let labels = xTicks.map { ticks in Dictionary(ticks.map { ($0.value, $0.label) }, uniquingKeysWith: { a, _ in a }) }
        Axis.bottom(
            xScale, y: height - Self.bottom, top: Self.top, title: xTitle, tickCount: 5, ticks: xTicks?.map(\.value),
            label: { labels?[$0] ?? xLabel($0) }, into: &svg)
        drawReferences(xScale, height: height, into: &svg)
        svg.start("g", ["class": "faint"])
        for point in faint {
            svg.start(
                "circle",
                [
                    "cx": Format.number(xScale.position(point.point.x)), "cy": Format.number(yScale.position(point.point.y)),
                    "r": "3", "fill": point.colour, "fill-opacity": "0.25",
                ])
            svg.element("title", text: point.tooltip)
            svg.end("circle")
        }
        svg.end("g")
        for line in series { draw(line, xScale, yScale, into: &svg) }
        svg.end("svg")
        svg.newline()
        return svg
    }

    private func drawReferences(_ scale: LinearScale, height: Double, into svg: inout Markup) {
        guard !references.isEmpty else { return }
        svg.start("g", ["class": "reference"])
        for reference in references where x.contains(reference.x) {
            let position = Format.number(scale.position(reference.x))
            svg.leaf(
                "line",
                ["x1": position, "y1": Format.number(Self.top), "x2": position, "y2": Format.number(height - Self.bottom)])
            svg.element(
                "text", ["x": position, "y": Format.number(Self.top - 6), "text-anchor": "middle"], text: reference.label)
        }
        svg.end("g")
        svg.newline()
    }

    private func draw(_ line: Series, _ xScale: LinearScale, _ yScale: LinearScale, into svg: inout Markup) {
        guard !line.points.isEmpty else { return }
        let pixels = line.points.map { PlanePoint(x: xScale.position($0.x), y: yScale.position($0.y)) }
        var data = "M" + ReportMap.pair(pixels[0])
        for point in pixels.dropFirst() {
            data += line.stepped ? "H" + Format.number(point.x) + "V" + Format.number(point.y) : "L" + ReportMap.pair(point)
        }
        svg.start("g", ["class": "series"])
        svg.start(
            "path",
            [
                "d": data, "fill": "none", "stroke": line.colour, "stroke-width": "2.5",
                "stroke-dasharray": line.dashed ? "6 4" : "none",
            ])
        svg.element("title", text: line.label)
        svg.end("path")
        if !line.stepped {
            for (point, pixel) in zip(line.points, pixels) {
                svg.start(
                    "circle", ["cx": Format.number(pixel.x), "cy": Format.number(pixel.y), "r": "4", "fill": line.colour])
                svg.element("title", text: line.label + " " + Format.number(point.y, decimals: 3))
                svg.end("circle")
            }
        }
        svg.end("g")
        svg.newline()
    }
}
