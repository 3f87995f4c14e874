/// A self-contained HTML5 page: inline CSS, inline SVG, no script, and no
/// reference to anything outside the file (no `http:` or `https:` at all:
/// inline `<svg>` in HTML needs no namespace declaration), so it opens
/// offline and as a CI artefact.
///
/// The page is also well-formed XML (every element closed, only XML's own
/// character references), so tests parse it with libxml2.
public struct ReportPage: Sendable {
    /// The page's title and first heading.
    public var title: String
    /// A line under the heading (what was run).
    public var subtitle: String
    private var body = Markup()
    /// CSS a report adds to ``stylesheet`` (written by this module only).
    var extraStyles = ""

    /// An empty page.
    public init(title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
    }

    /// Appends a section: a heading, an optional explanation, and content.
    public mutating func section(_ heading: String, note: String? = nil, _ content: Markup) {
        body.start("section")
        body.element("h2", text: heading)
        if let note { body.element("p", ["class": "note"], text: note) }
        body.newline()
        body.append(content)
        body.end("section")
        body.newline()
    }

    /// The whole document.
    public var html: String {
        var page = Markup()
        page.appendRaw("<!DOCTYPE html>\n")
        page.start("html", ["lang": "en"])
        page.start("head")
        page.leaf("meta", ["charset": "utf-8"])
        page.leaf("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"])
        page.element("title", text: title)
        page.start("style")
        page.appendRaw(Self.stylesheet + extraStyles)
        page.end("style")
        page.end("head")
        page.newline()
        page.start("body")
        page.start("header")
        page.element("h1", text: title)
        page.element("p", ["class": "subtitle"], text: subtitle)
        page.end("header")
        page.newline()
        page.append(body)
        page.end("body")
        page.end("html")
        page.newline()
        return page.text
    }

    /// The page's CSS: system fonts, readable sizes, and the classes the
    /// SVG writers use. No `<` or `&` in it (it must stay XML text).
    static let stylesheet = """

        body { font: 15px/1.45 system-ui, "DejaVu Sans", sans-serif; color: #222; background: #fff; margin: 24px auto; max-width: 1000px; padding: 0 16px; }
        h1 { font-size: 24px; margin: 0 0 4px; }
        h2 { font-size: 19px; margin: 28px 0 6px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
        .subtitle, .note { color: #555; margin: 4px 0 10px; }
        svg { max-width: 100%; height: auto; display: block; }
        svg text { font-family: system-ui, "DejaVu Sans", sans-serif; font-size: 13px; fill: #222; }
        .map .ground { fill: #f6f6f2; stroke: #ccc; }
        .map .labels text { font-size: 13px; font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
        .map .scale text, .map .north text { font-size: 13px; font-weight: 600; }
        .map .caption { font-size: 11px; fill: #666; }
        .map .mark-labels text { font-size: 12px; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
        .map .mark-labels .bold { font-weight: 700; }
        .map .leader { stroke: #888; stroke-width: 1; }
        .timeline .band { fill: #f6f6f6; }
        .timeline .label { font-weight: 600; font-size: 14px; }
        .timeline .detail { fill: #555; font-size: 12px; }
        .axis text { fill: #444; font-size: 12px; }
        .axis line { stroke: #999; }
        .axis .grid { stroke: #ddd; }
        .axis .title { font-size: 13px; fill: #222; }
        .mark:hover { opacity: 0.7; }
        ul.legend { list-style: none; padding: 0; margin: 8px 0; display: flex; flex-wrap: wrap; gap: 4px 18px; }
        ul.legend li { display: flex; align-items: center; gap: 6px; }
        ul.legend svg { display: inline-block; }
        table { border-collapse: collapse; margin: 8px 0; }
        th, td { padding: 4px 12px; border-bottom: 1px solid #e3e3e3; text-align: left; }
        th { background: #f3f3f3; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }

        """
}
