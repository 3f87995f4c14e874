/// Everything `evaluate` says about one setting: DESIGN.md's JSON object
/// without its `setting`.
public struct EvaluationScores: Sendable {
    /// Entries (`enter` and `cross`).
    public var enter: DetectionMetrics
    /// Exits (`exit` and `cross`).
    public var exit: DetectionMetrics
    /// Both kinds together.
    public var all: DetectionMetrics
    /// True visits and how many were recalled.
    public var visits: VisitRecall
    /// The truth covered; `nil` for hand-labelled events (`--truth-events`),
    /// which say nothing of the time and distance between them.
    public var coverage: TruthCoverage?
    /// Location reminders on the feed against those on the truth, when
    /// tasks were given.
    public var reminders: DetectionMetrics?

    /// Scores from their parts: what the shards of a run (`--shard`) add
    /// up to.
    public init(
        enter: DetectionMetrics, exit: DetectionMetrics, all: DetectionMetrics, visits: VisitRecall,
        coverage: TruthCoverage?, reminders: DetectionMetrics? = nil
    ) {
        self.enter = enter
        self.exit = exit
        self.all = all
        self.visits = visits
        self.coverage = coverage
        self.reminders = reminders
    }

    /// The scores of `detected` against `truth`, matched within `window`.
    public init(
        truth: [ScoredEvent], detected: [ScoredEvent], window: MatchWindow, coverage: TruthCoverage?,
        reminders: (truth: [ScoredEvent], detected: [ScoredEvent])? = nil
    ) {
        let matching = EventMatching(truth: truth, detected: detected, window: window)
        enter = DetectionMetrics(matching, truth: truth, detected: detected, kind: .enter)
        exit = DetectionMetrics(matching, truth: truth, detected: detected, kind: .exit)
        all = DetectionMetrics(matching, truth: truth, detected: detected, kind: nil)
        visits = VisitRecall(matching, truth: truth)
        self.coverage = coverage
        self.reminders = reminders.map { reminders in
            let matching = EventMatching(truth: reminders.truth, detected: reminders.detected, window: window)
            return DetectionMetrics(matching, truth: reminders.truth, detected: reminders.detected, kind: nil)
        }
    }

    /// False entries (unmatched detected entries) per 100 device-hours of
    /// truth; `nil` without coverage.
    public var falseEntriesPer100h: Double? { coverage?.per100DeviceHours(enter.falsePositives) }
}

/// How early and how late a detection may be and still match a true event
/// (`--window EARLY,LATE`, default 30 s, 10 min).
public struct MatchWindow: Hashable, Sendable {
    /// Seconds before the true event.
    public var early: Double
    /// Seconds after it.
    public var late: Double

    /// The longest either side may be: a year, in seconds.
    public static let longestSide = 365.0 * 86_400

    /// A window from `early` seconds before to `late` seconds after, each
    /// at most ``longestSide``.
    public init(early: Double = 30, late: Double = 600) {
        self.early = early
        self.late = late
    }
}

extension EventMatching {
    /// Matches within `window`.
    public init(truth: [ScoredEvent], detected: [ScoredEvent], window: MatchWindow) {
        self.init(truth: truth, detected: detected, early: window.early, late: window.late)
    }
}
