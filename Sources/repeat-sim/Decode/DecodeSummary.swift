import FeedParsing

/// The per-feed counts `decode` prints to stderr.
struct DecodeSummary {
    let feed: String
    /// What is counted: `fix` (plural `fixes`) or `waypoint`.
    let itemName: String
    var format: FeedFormat?
    var items = 0
    var skipped: [FeedDiagnostic.Code: Int] = [:]
    var ignored: [String: Int] = [:]

    mutating func count(_ diagnostic: FeedDiagnostic) {
        skipped[diagnostic.code, default: 0] += 1
    }

    /// `x.nmea (nmea): 154 fixes, 3 skipped (badChecksum 2, truncated 1); ignored: GSV 24`.
    var line: String {
        let total = skipped.values.reduce(0, +)
        let plural = itemName == "fix" ? "fixes" : itemName + "s"
        var text = "\(feed) (\(format?.rawValue ?? "unknown")): \(items) \(items == 1 ? itemName : plural), \(total) skipped"
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
