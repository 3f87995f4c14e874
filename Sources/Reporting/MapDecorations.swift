/// The scale bar and north arrow of a map.
public enum MapDecorations {
    /// A scale bar in the bottom left corner: a round length (1, 2 or
    /// 5 × 10ⁿ metres) of at most a quarter of the map's width, in two
    /// halves, black and white, labelled (`500 m`, `2 km`).
    public static func scaleBar(_ frame: MapFrame, into svg: inout Markup) {
        let metres = LinearScale.niceStep(atMost: frame.width / 4 / frame.pixelsPerMetre)
        guard metres > 0 else { return }
        let length = metres * frame.pixelsPerMetre
        let x = 16.0, y = frame.height - 18
        svg.start("g", ["class": "scale"])
        svg.leaf(
            "rect",
            [
                "x": Format.number(x - 6), "y": Format.number(y - 22), "width": Format.number(length + 12), "height": "32",
                "fill": "#ffffff", "fill-opacity": "0.8",
            ])
        svg.leaf(
            "rect",
            [
                "x": Format.number(x), "y": Format.number(y), "width": Format.number(length / 2), "height": "6",
                "fill": "#222222",
            ])
        svg.leaf(
            "rect",
            [
                "x": Format.number(x + length / 2), "y": Format.number(y), "width": Format.number(length / 2), "height": "6",
                "fill": "#ffffff", "stroke": "#222222",
            ])
        svg.element("text", ["x": Format.number(x), "y": Format.number(y - 6)], text: Format.metres(metres))
        svg.end("g")
        svg.newline()
    }

    /// A north arrow in the top right corner (north is up in a
    /// ``LocalProjection``).
    public static func northArrow(_ frame: MapFrame, into svg: inout Markup) {
        let x = frame.width - 28, y = 20.0
        svg.start("g", ["class": "north"])
        svg.leaf(
            "path", ["d": "M" + ReportMap.pair(PlanePoint(x: x, y: y + 8)) + "l-9 26l9-7l9 7z", "fill": "#222222"])
        svg.element("text", ["x": Format.number(x), "y": Format.number(y + 4), "text-anchor": "middle"], text: "N")
        svg.end("g")
        svg.newline()
    }

    /// The centre's coordinates and the projection, in the bottom right
    /// corner: where on Earth the map is.
    public static func caption(_ frame: MapFrame, into svg: inout Markup) {
        let centre = frame.projection.centre
        let text =
            Format.number(abs(centre.latitude), decimals: 4) + "° " + (centre.latitude < 0 ? "S" : "N") + ", "
            + Format.number(abs(centre.longitude), decimals: 4) + "° " + (centre.longitude < 0 ? "W" : "E")
            + " · north up · local equirectangular"
        svg.element(
            "text",
            [
                "x": Format.number(frame.width - 10), "y": Format.number(frame.height - 10), "text-anchor": "end",
                "class": "caption",
            ], text: text)
        svg.newline()
    }
}
