/// What Repeat knows of Google's on-device Timeline export, so that the
/// sniffer can tell it and the readers of places and regions can say what
/// it is.
public enum GoogleLocationExports {
    /// The top-level keys of Android's on-device Timeline export
    /// (`Timeline.json`, since 2024), one of which comes first.
    public static let timelineKeys = ["semanticSegments", "rawSignals", "userLocationProfile"]

    /// The keys that open a segment of iOS's Timeline export, a JSON array
    /// of segments.
    public static let segmentKeys = ["startTime", "endTime"]

    /// What to say of the on-device Timeline export where `what` (named
    /// places, regions) is expected.
    public static func timelineProblem(not what: String) -> String {
        "Google's on-device Timeline export (Timeline.json): positions, not \(what) (replay takes it as a FEED)"
    }

    /// Whether a parsed JSON document is the on-device Timeline export:
    /// an object with one of ``timelineKeys``, or an array whose first
    /// element has both ``segmentKeys``.
    public static func isDeviceTimeline(_ root: Any?) -> Bool {
        if let object = root as? [String: Any] { return timelineKeys.contains { object[$0] != nil } }
        guard let first = (root as? [Any])?.first as? [String: Any] else { return false }
        return segmentKeys.allSatisfy { first[$0] != nil }
    }
}
