/// Visits: a true entry to the following true exit of the same device and
/// region (or to the end of the truth), and how many of them the detector
/// noticed — a visit is recalled when its entry was matched.
public struct VisitRecall: Hashable, Sendable {
    /// True visits.
    public var visits: Int
    /// Visits whose entry was matched.
    public var recalled: Int

    /// recalled / visits; `nil` without visits.
    public var recall: Double? { visits == 0 ? nil : Double(recalled) / Double(visits) }

    /// `recalled` of `visits`.
    public init(visits: Int, recalled: Int) {
        self.visits = visits
        self.recalled = recalled
    }

    /// The visits of `truth` and how many `matching` recalled. Every true
    /// entry opens a visit (the exit that follows closes it, or the truth
    /// ends); a track that starts inside has no entry, so no visit there.
    public init(_ matching: EventMatching, truth: [ScoredEvent]) {
        let matched = Set(matching.matches.map(\.truth))
        let entries = truth.indices.filter { truth[$0].kind == .enter }
        visits = entries.count
        recalled = entries.filter(matched.contains).count
    }
}
