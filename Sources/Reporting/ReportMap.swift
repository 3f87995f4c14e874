import GeoCore

/// A map of tracks, regions and events as SVG, in a local equirectangular
/// projection (``MapFrame``), with a scale bar and a north arrow.
///
/// Regions are drawn true: a circle of radius r metres becomes the
/// ellipse the projection makes of it (a circle at city scale), polygons
/// their rings. Tracks are simplified to half a pixel for drawing
/// (``Simplification``). Every label and tooltip is escaped.
public struct ReportMap: Sendable {
    /// A device's track.
    public struct Track: Hashable, Sendable {
        /// What the legend and tooltip call it.
        public var label: String
        /// A CSS colour.
        public var colour: String
        /// Separate pieces (trips), each drawn as one line.
        public var segments: [[Coordinate]]

        /// A track.
        public init(label: String, colour: String, segments: [[Coordinate]]) {
            self.label = label
            self.colour = colour
            self.segments = segments
        }
    }

    /// A region's shape.
    public enum Shape: Hashable, Sendable {
        /// A circle of `radius` metres.
        case circle(centre: Coordinate, radius: Double)
        /// Polygons, each an outer ring then holes.
        case polygons([[[Coordinate]]])
    }

    /// A region.
    public struct Region: Hashable, Sendable {
        /// The name written beside it (when the map has few regions).
        public var label: String
        /// Its shape.
        public var shape: Shape
        /// The hover text.
        public var tooltip: String

        /// A region.
        public init(label: String, shape: Shape, tooltip: String) {
            self.label = label
            self.shape = shape
            self.tooltip = tooltip
        }
    }

    /// An event at a place.
    public struct Mark: Hashable, Sendable {
        /// Where it happened.
        public var coordinate: Coordinate
        /// How it is drawn.
        public var style: MarkStyle
        /// The hover text (what, when, why).
        public var tooltip: String
        /// A short text written beside the mark (for a picture without
        /// hover: a screenshot, a printout); labels that would overlap
        /// are stacked.
        public var label: String?

        /// A mark.
        public init(coordinate: Coordinate, style: MarkStyle, tooltip: String, label: String? = nil) {
            self.coordinate = coordinate
            self.style = style
            self.tooltip = tooltip
            self.label = label
        }
    }

    /// The tracks, drawn in order.
    public var tracks: [Track]
    /// The regions, drawn under the tracks.
    public var regions: [Region]
    /// The events, drawn over the tracks in order (put the important ones last).
    public var marks: [Mark]
    /// Regions are labelled when there are at most this many.
    public var maximumLabels = 40

    /// Region fill and outline.
    public static let regionFill = "#F0E442", regionStroke = "#8a7d00"

    /// A map of these layers.
    public init(tracks: [Track], regions: [Region], marks: [Mark]) {
        self.tracks = tracks
        self.regions = regions
        self.marks = marks
    }

    /// The coordinates the frame must show: every track point, the
    /// extremes of each region, and every mark.
    public var coverage: [Coordinate] {
        var points = tracks.flatMap { $0.segments.joined() } + marks.map(\.coordinate)
        for region in regions {
            switch region.shape {
            case .circle(let centre, let radius):
                points += [0.0, 90, 180, 270].map { Geodesy.destination(from: centre, bearing: $0, metres: radius) }
            case .polygons(let polygons):
                points += polygons.flatMap { $0.flatMap { $0 } }
            }
        }
        return points
    }

    /// The frame the map is drawn in at `width` pixels, its height from
    /// the content within `heights`.
    public func frame(width: Double = 960, heights: ClosedRange<Double> = 360...720) -> MapFrame {
        MapFrame(covering: coverage, width: width, heights: heights, margin: 36)
    }

    /// The map as an `<svg>` element in ``frame(width:heights:)``.
    public func svg(width: Double = 960, heights: ClosedRange<Double> = 360...720, title: String = "Map") -> Markup {
        let frame = frame(width: width, heights: heights)
        var svg = Markup()
        let w = Format.number(width), h = Format.number(frame.height)
        svg.start("svg", ["class": "map", "viewBox": "0 0 " + w + " " + h, "width": w, "height": h, "role": "img"])
        svg.element("title", text: title)
        svg.leaf("rect", ["width": w, "height": h, "class": "ground"])
        svg.newline()
        drawRegions(frame, into: &svg)
        drawTracks(frame, into: &svg)
        svg.start("g", ["class": "marks"])
        for mark in marks {
            mark.style.draw(at: frame.pixel(mark.coordinate), tooltip: mark.tooltip.isEmpty ? nil : mark.tooltip, into: &svg)
        }
        svg.end("g")
        svg.newline()
        MapLabels.draw(
            marks.compactMap { mark in mark.label.map { (frame.pixel(mark.coordinate), mark.style.size, $0, !mark.style.hollow) }
            }, frame: frame,
            into: &svg)
        MapDecorations.scaleBar(frame, into: &svg)
        MapDecorations.caption(frame, into: &svg)
        MapDecorations.northArrow(frame, into: &svg)
        svg.end("svg")
        svg.newline()
        return svg
    }

    private func drawRegions(_ frame: MapFrame, into svg: inout Markup) {
        svg.start("g", ["class": "regions", "fill": Self.regionFill, "fill-opacity": "0.35", "stroke": Self.regionStroke])
        for region in regions {
            switch region.shape {
            case .circle(let centre, let radius):
                let p = frame.pixel(centre)
                let (rx, ry) = frame.projection.ellipse(centre: centre, radius: radius)
                svg.start(
                    "ellipse",
                    [
                        "cx": Format.number(p.x), "cy": Format.number(p.y),
                        "rx": Format.number(max(rx * frame.pixelsPerMetre, 2), decimals: 2),
                        "ry": Format.number(max(ry * frame.pixelsPerMetre, 2), decimals: 2),
                    ])
            case .polygons(let polygons):
                let rings = polygons.joined().map { ring in
                    "M" + ring.map { Self.pair(frame.pixel($0)) }.joined(separator: "L") + "Z"
                }
                svg.start("path", ["d": rings.joined(), "fill-rule": "evenodd"])
            }
            svg.element("title", text: region.tooltip)
            svg.end(region.shapeElement)
        }
        svg.end("g")
        svg.newline()
        guard regions.count <= maximumLabels else { return }
        svg.start("g", ["class": "labels"])
        for region in regions {
            let (anchor, offset) = region.labelAnchor(frame)
            svg.element(
                "text", ["x": Format.number(anchor.x), "y": Format.number(anchor.y - offset - 6), "text-anchor": "middle"],
                text: region.label)
        }
        svg.end("g")
        svg.newline()
    }

    private func drawTracks(_ frame: MapFrame, into svg: inout Markup) {
        svg.start("g", ["class": "tracks", "fill": "none", "stroke-width": "2.5", "stroke-linejoin": "round"])
        for track in tracks {
            let data = track.segments.map { segment -> String in
                let line = Simplification.simplify(segment.map(frame.pixel), tolerance: 0.5)
                return "M" + line.map(Self.pair).joined(separator: " ") + (line.count == 1 ? "h0.1" : "")
            }
            svg.start("path", ["d": data.joined(), "stroke": track.colour, "stroke-linecap": "round"])
            svg.element("title", text: track.label)
            svg.end("path")
            svg.newline()
        }
        svg.end("g")
    }

    /// `x y` of a pixel, to a tenth.
    static func pair(_ point: PlanePoint) -> String { Format.number(point.x) + " " + Format.number(point.y) }
}

extension ReportMap.Region {
    fileprivate var shapeElement: String {
        if case .circle = shape { return "ellipse" }
        return "path"
    }

    /// The top centre of the region in pixels, and its half-height there.
    fileprivate func labelAnchor(_ frame: MapFrame) -> (PlanePoint, Double) {
        switch shape {
        case .circle(let centre, let radius):
            return (frame.pixel(centre), max(radius * frame.pixelsPerMetre, 2))
        case .polygons(let polygons):
            let points = polygons.flatMap { $0.first ?? [] }.map(frame.pixel)
            let top = points.map(\.y).min() ?? 0
            let middle = ((points.map(\.x).min() ?? 0) + (points.map(\.x).max() ?? 0)) / 2
            return (PlanePoint(x: middle, y: top), 0)
        }
    }
}
