/// Axes with grid lines for a report's charts and timelines.
public enum Axis {
    /// A time axis along the top of a plot: tick labels above `y`, grid
    /// lines from `y` down to `bottom`.
    public static func time(_ scale: TimeScale, y: Double, bottom: Double, tickCount: Int, into svg: inout Markup) {
        svg.start("g", ["class": "axis"])
        for (time, label) in scale.ticks(count: tickCount) {
            let position = scale.position(time)
            let x = Format.number(position)
            svg.leaf("line", ["x1": x, "y1": Format.number(y), "x2": x, "y2": Format.number(bottom), "class": "grid"])
            // A label near an end of the axis is kept inside the plot.
            let anchor = position > scale.right - 40 ? "end" : position < scale.left + 40 ? "start" : "middle"
            svg.element("text", ["x": x, "y": Format.number(y - 6), "text-anchor": anchor], text: label)
        }
        svg.end("g")
        svg.newline()
    }

    /// A value axis along the bottom of a plot: a base line at `y` from
    /// the scale's start to its end, ticks labelled by `label` (at `ticks`
    /// when given, else at about `tickCount` round values), grid lines up
    /// to `top`, and the axis `title` below.
    public static func bottom(
        _ scale: LinearScale, y: Double, top: Double, title: String, tickCount: Int = 5, ticks: [Double]? = nil,
        label: (Double) -> String = { Format.number($0, decimals: 2) }, into svg: inout Markup
    ) {
        svg.start("g", ["class": "axis"])
        for value in ticks ?? scale.ticks(count: tickCount) {
            let x = Format.number(scale.position(value))
            svg.leaf("line", ["x1": x, "y1": Format.number(top), "x2": x, "y2": Format.number(y), "class": "grid"])
            svg.element("text", ["x": x, "y": Format.number(y + 16), "text-anchor": "middle"], text: label(value))
        }
        svg.leaf(
            "line",
            ["x1": Format.number(scale.start), "y1": Format.number(y), "x2": Format.number(scale.end), "y2": Format.number(y)])
        svg.element(
            "text",
            [
                "x": Format.number((scale.start + scale.end) / 2), "y": Format.number(y + 34), "text-anchor": "middle",
                "class": "title",
            ], text: title)
        svg.end("g")
        svg.newline()
    }

    /// A value axis along the left of a plot: a base line at `x` along the
    /// scale (pixels top to bottom), ticks labelled by `label`, grid lines
    /// across to `right`, and the axis `title` written upwards.
    public static func left(
        _ scale: LinearScale, x: Double, right: Double, title: String, tickCount: Int = 5,
        label: (Double) -> String = { Format.number($0, decimals: 2) }, into svg: inout Markup
    ) {
        svg.start("g", ["class": "axis"])
        for value in scale.ticks(count: tickCount) {
            let y = Format.number(scale.position(value))
            svg.leaf("line", ["x1": Format.number(x), "y1": y, "x2": Format.number(right), "y2": y, "class": "grid"])
            svg.element("text", ["x": Format.number(x - 6), "y": y, "dy": "0.35em", "text-anchor": "end"], text: label(value))
        }
        svg.leaf(
            "line",
            ["x1": Format.number(x), "y1": Format.number(scale.start), "x2": Format.number(x), "y2": Format.number(scale.end)])
        let middle = Format.number((scale.start + scale.end) / 2)
        svg.element(
            "text",
            [
                "x": Format.number(x - 44), "y": middle, "text-anchor": "middle", "class": "title",
                "transform": "rotate(-90 " + Format.number(x - 44) + " " + middle + ")",
            ], text: title)
        svg.end("g")
        svg.newline()
    }
}
