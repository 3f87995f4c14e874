import FeedParsing
import GeoCore

/// What one feed of a run decoded to: items, skipped records by reason,
/// and what was ignored on purpose.
public struct FeedSummary: Sendable {
    /// The feed's name as diagnostics give it (`<stdin>` for standard input).
    public let feed: String
    /// The format decoded (detected or given).
    public var format: FeedFormat?
    /// Fixes decoded.
    public var fixes = 0
    /// Where its first fix was: for a run that found nothing, how far that
    /// is from the regions.
    public var firstPosition: Coordinate?
    /// GPX waypoints decoded (with `--waypoints`).
    public var waypoints = 0
    /// Skipped records by diagnostic code.
    public var skipped: [FeedDiagnostic.Code: Int] = [:]
    /// Records ignored on purpose (GSV sentences, route points…), by kind.
    public var ignored: [String: Int] = [:]

    /// An empty summary of `feed`.
    public init(feed: String) { self.feed = feed }

    /// Counts one diagnostic.
    public mutating func count(_ diagnostic: FeedDiagnostic) {
        skipped[diagnostic.code, default: 0] += 1
    }

    /// `x.nmea (nmea): 154 fixes, 3 skipped (badChecksum 2, truncated 1); ignored: GSV 24`,
    /// counting waypoints instead of fixes when `waypoints` is set.
    public func line(countingWaypoints: Bool = false) -> String {
        let total = skipped.values.reduce(0, +)
        let items = countingWaypoints ? waypoints : fixes
        let noun = countingWaypoints ? (items == 1 ? "waypoint" : "waypoints") : (items == 1 ? "fix" : "fixes")
        var text = "\(feed) (\(format?.rawValue ?? "unknown")): \(items) \(noun), \(total) skipped"
        if total > 0 {
            let reasons = FeedDiagnostic.Code.allCases.compactMap { code in skipped[code].map { "\(code.rawValue) \($0)" } }
            text += " (" + reasons.joined(separator: ", ") + ")"
        }
        if !ignored.isEmpty {
            text += "; ignored: " + ignored.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return text
    }
}
