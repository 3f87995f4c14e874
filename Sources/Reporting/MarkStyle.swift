/// How an event is drawn on a map or a timeline: a shape, a colour, and
/// filled or hollow.
///
/// Reports keep to one meaning per style across map, timeline and legend.
/// The colours are the Okabe–Ito palette (told apart with the common
/// colour-vision deficiencies), and shapes differ too.
public struct MarkStyle: Hashable, Sendable {
    /// The outline of a mark.
    public enum Shape: String, Hashable, Sendable {
        /// A disc.
        case circle
        /// A square standing on a corner.
        case diamond
        /// A square.
        case square
        /// A triangle pointing up.
        case triangleUp
        /// A triangle pointing down.
        case triangleDown
    }

    /// What the legend calls it.
    public var label: String
    /// The outline.
    public var shape: Shape
    /// A CSS colour (`#rrggbb`).
    public var colour: String
    /// Drawn as an outline only (suppressed events: what did not happen).
    public var hollow: Bool
    /// The radius in pixels.
    public var size: Double
    /// The outline of a filled mark: a CSS colour, or `none` (a dot).
    public var outline = "#222222"

    /// A style.
    public init(label: String, shape: Shape, colour: String, hollow: Bool = false, size: Double = 6) {
        self.label = label
        self.shape = shape
        self.colour = colour
        self.hollow = hollow
        self.size = size
    }

    /// Draws the mark centred at `point`, with `tooltip` as its SVG
    /// `<title>` (shown on hover) when given.
    public func draw(at point: PlanePoint, tooltip: String? = nil, into svg: inout Markup) {
        let fill = hollow ? "#ffffff" : colour
        let stroke = hollow ? colour : outline
        let width = hollow ? "2.5" : "1"
        let x = Format.number(point.x), y = Format.number(point.y)
        if tooltip != nil { svg.start("g", ["class": "mark"]) }
        switch shape {
        case .circle:
            svg.leaf(
                "circle", ["cx": x, "cy": y, "r": Format.number(size), "fill": fill, "stroke": stroke, "stroke-width": width])
        default:
            svg.leaf("path", ["d": path(at: point), "fill": fill, "stroke": stroke, "stroke-width": width])
        }
        if let tooltip {
            svg.element("title", text: tooltip)
            svg.end("g")
        }
    }

    /// The outline of a non-circular shape as SVG path data.
    private func path(at p: PlanePoint) -> String {
        let s = size
        let corners: [(Double, Double)]
        switch shape {
        case .circle: corners = []
        case .diamond: corners = [(0, -s * 1.25), (s * 1.25, 0), (0, s * 1.25), (-s * 1.25, 0)]
        case .square: corners = [(-s, -s), (s, -s), (s, s), (-s, s)]
        case .triangleUp: corners = [(0, -s * 1.2), (s * 1.1, s * 0.8), (-s * 1.1, s * 0.8)]
        case .triangleDown: corners = [(0, s * 1.2), (s * 1.1, -s * 0.8), (-s * 1.1, -s * 0.8)]
        }
        return "M" + corners.map { Format.number(p.x + $0.0) + " " + Format.number(p.y + $0.1) }.joined(separator: "L") + "Z"
    }
}

/// The styles of a replay report: reminders, suppressions by reason and
/// geofence transitions. An evaluation report adds its own (TP, FP, FN)
/// the same way.
public enum ReplayStyles {
    /// A location reminder: the arrival that reminded.
    public static let location = MarkStyle(label: "location reminder", shape: .circle, colour: "#009E73", size: 8)
    /// A due reminder (time-based; on the timeline).
    public static let due = MarkStyle(label: "due reminder", shape: .diamond, colour: "#D55E00", size: 7)
    /// A geofence entry.
    public static let enter = MarkStyle(label: "enter", shape: .triangleUp, colour: "#0072B2", size: 5)
    /// A geofence exit.
    public static let exit = MarkStyle(label: "exit", shape: .triangleDown, colour: "#56B4E9", size: 5)
    /// A dwell.
    public static let dwell = MarkStyle(label: "dwell", shape: .square, colour: "#0072B2", size: 3.5)
    /// A cross (the line between two fixes passed through a region).
    public static let cross = MarkStyle(label: "cross", shape: .diamond, colour: "#CC79A7", size: 4)
    /// A completion of a task (timeline).
    public static let completion = MarkStyle(label: "completed", shape: .square, colour: "#000000", size: 4)

    /// A suppressed event, hollow, coloured by its reason (DESIGN's
    /// `reason` values: not-due, cooldown, completed, accuracy,
    /// pending-limit, monitor-limit).
    public static func suppressed(_ reason: String) -> MarkStyle {
        let colour: String
        switch reason {
        case "not-due": colour = "#E69F00"
        case "cooldown": colour = "#CC79A7"
        case "completed": colour = "#777777"
        default: colour = "#D55E00"  // a reminder lost to a limit or the accuracy gate
        }
        return MarkStyle(label: "suppressed: " + reason, shape: .circle, colour: colour, hollow: true, size: 10)
    }
}

extension ReplayStyles {
    /// A cycle before its window opens (anchor → window start).
    public static let waiting = SpanStyle(label: "cycle running, not yet due", fill: "#e3e3e3", stroke: "#b0b0b0")
    /// A cycle's window (window start → due): arrivals remind.
    public static let window = SpanStyle(label: "in its window (arrivals remind)", fill: "#a6dba0", stroke: "#4d9a55")
    /// An overdue cycle (due → completion).
    public static let overdue = SpanStyle(label: "overdue", fill: "#f4a582", stroke: "#c4603a")
}
