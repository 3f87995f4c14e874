/// Text labels beside map marks, placed greedily so that they do not
/// overlap: each label goes right of its mark (left near the right edge),
/// moved down a line at a time (then up) until it is clear of those
/// placed. Labels are placed in text order, so labels that start with
/// their time stack chronologically; labels of filled marks (what
/// happened, not what was suppressed) are bold.
enum MapLabels {
    static let lineHeight = 16.0
    /// An estimate of a character's width at the labels' 12 px font.
    static let characterWidth = 6.6

    /// Draws `labels` (a mark's pixel, its radius, the text) in order.
    static func draw(
        _ labels: [(point: PlanePoint, radius: Double, text: String, bold: Bool)], frame: MapFrame, into svg: inout Markup
    ) {
        guard !labels.isEmpty else { return }
        var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        svg.start("g", ["class": "mark-labels"])
        for label in labels.sorted(by: { $0.text < $1.text }) {
            let width = Double(label.text.count) * characterWidth
            let right = label.point.x + label.radius + 4 + width < frame.width - 4
            let x0 = right ? label.point.x + label.radius + 4 : label.point.x - label.radius - 4 - width
            var y = label.point.y
            for step in 0..<40 {
                let offset = Double(step < 20 ? step : 19 - step) * lineHeight
                let box = (
                    x0: x0, y0: label.point.y + offset - lineHeight / 2, x1: x0 + width,
                    y1: label.point.y + offset + lineHeight / 2
                )
                if !placed.contains(where: { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 }) {
                    y = label.point.y + offset
                    placed.append(box)
                    break
                }
            }
            if y != label.point.y {
                svg.leaf(
                    "line",
                    [
                        "x1": Format.number(label.point.x), "y1": Format.number(label.point.y),
                        "x2": Format.number(right ? x0 : x0 + width),
                        "y2": Format.number(y), "class": "leader",
                    ])
            }
            svg.element(
                "text",
                [
                    "x": Format.number(right ? x0 : x0 + width), "y": Format.number(y), "dy": "0.35em",
                    "text-anchor": right ? "start" : "end", "class": label.bold ? "bold" : "plain",
                ], text: label.text)
        }
        svg.end("g")
        svg.newline()
    }
}
