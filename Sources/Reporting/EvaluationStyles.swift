/// The styles of an evaluation report: what became of each entry (▲)
/// and exit (▼) — found in green, false in orange, missed hollow in
/// vermilion — the true visits, the fix strip and the metric lines.
public enum EvaluationStyles {
    /// The mark of an event: its outcome's colour, its kind's shape.
    public static func style(_ outcome: EvaluationReport.Outcome, entry: Bool) -> MarkStyle {
        let kind = entry ? "entry" : "exit"
        let shape: MarkStyle.Shape = entry ? .triangleUp : .triangleDown
        switch outcome {
        case .found: return MarkStyle(label: "found " + kind + " (TP)", shape: shape, colour: "#009E73", size: 6)
        case .falseAlarm: return MarkStyle(label: "false " + kind + " (FP)", shape: shape, colour: "#E69F00", size: 6)
        case .missed:
            return MarkStyle(label: "missed " + kind + " (FN)", shape: shape, colour: "#D55E00", hollow: true, size: 7)
        }
    }

    /// Every mark style, in legend order.
    public static let marks: [MarkStyle] = [EvaluationReport.Outcome.found, .missed, .falseAlarm].flatMap { outcome in
        [true, false].map { style(outcome, entry: $0) }
    }

    /// A true visit (inside the region, according to the truth).
    public static let visit = SpanStyle(label: "true visit", fill: "#bcd7ee", stroke: "#4a86b8")

    /// The strip's colours: fixes within 20 m, fixes less accurate but
    /// used, fixes ignored by the accuracy gate.
    public static let accurateFixes = "#555555", roughFixes = "#a8a8a8", ignoredFixes = "#e8a0a0"

    /// The metric lines of the sweep charts.
    public static let precision = "#0072B2", recall = "#CC79A7", f1 = "#222222"

    /// The track of the truth on the small maps.
    public static let truthTrack = "#222222"

    /// The colour of fixes of a quality, in the strip and on the maps.
    public static func colour(_ quality: EvaluationReport.FixQuality) -> String {
        switch quality {
        case .accurate: return accurateFixes
        case .rough: return roughFixes
        case .ignored: return ignoredFixes
        }
    }

    /// What the legend calls fixes of a quality.
    public static func label(_ quality: EvaluationReport.FixQuality) -> String {
        switch quality {
        case .accurate: return "fixes within 20 m"
        case .rough: return "fixes less accurate"
        case .ignored: return "fixes ignored (inaccurate)"
        }
    }

    /// A fix on a small map: a dot without outline.
    public static func dot(_ quality: EvaluationReport.FixQuality) -> MarkStyle {
        var style = MarkStyle(label: label(quality), shape: .circle, colour: colour(quality), size: 2.4)
        style.outline = "none"
        return style
    }
}
