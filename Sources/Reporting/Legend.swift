/// A legend: small swatches with what they mean, as HTML with inline SVG
/// swatches (so the words wrap and stay readable at any width).
public struct Legend: Hashable, Sendable {
    /// One line of a legend.
    public enum Entry: Hashable, Sendable {
        /// A mark of a map or timeline.
        case mark(MarkStyle)
        /// A line (a track), in a CSS colour.
        case line(colour: String, label: String)
        /// A filled area with an outline (a region, a bar).
        case area(fill: String, stroke: String, label: String)
    }

    /// The entries, in order.
    public var entries: [Entry]

    /// A legend of `entries`.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// `<ul class="legend">…</ul>`.
    public var markup: Markup {
        var html = Markup()
        html.start("ul", ["class": "legend"])
        for entry in entries {
            html.start("li")
            html.start("svg", ["width": "26", "height": "18", "viewBox": "0 0 26 18", "aria-hidden": "true"])
            let label: String
            switch entry {
            case .mark(let style):
                var small = style
                small.size = min(style.size, 6.5)
                small.draw(at: PlanePoint(x: 13, y: 9), into: &html)
                label = style.label
            case .line(let colour, let text):
                html.leaf("line", ["x1": "1", "y1": "9", "x2": "25", "y2": "9", "stroke": colour, "stroke-width": "4"])
                label = text
            case .area(let fill, let stroke, let text):
                html.leaf(
                    "rect",
                    ["x": "2", "y": "3", "width": "22", "height": "12", "fill": fill, "stroke": stroke, "stroke-width": "1.5"])
                label = text
            }
            html.end("svg")
            html.text(label)
            html.end("li")
        }
        html.end("ul")
        html.newline()
        return html
    }
}
