/// The scores of one kind of event (`enter`, `exit`, or both together):
/// DESIGN.md's `{"tp","fp","fn","precision","recall","f1","latency_s"}`.
public struct DetectionMetrics: Hashable, Sendable {
    /// Latency percentiles in seconds (`nil` without matches).
    public struct Latency: Hashable, Sendable {
        /// Median.
        public var p50: Double?
        /// 90th percentile.
        public var p90: Double?
        /// 95th percentile.
        public var p95: Double?
        /// The largest.
        public var max: Double?
    }

    /// True positives: matched true events.
    public var truePositives: Int
    /// False positives: detected events left unmatched.
    public var falsePositives: Int
    /// False negatives: true events left unmatched.
    public var falseNegatives: Int
    /// Latencies of the matches, from ``percentile(_:ofSorted:)``.
    public var latency: Latency

    /// TP / (TP + FP); `nil` with nothing detected.
    public var precision: Double? { ratio(truePositives, truePositives + falsePositives) }
    /// TP / (TP + FN); `nil` with nothing true.
    public var recall: Double? { ratio(truePositives, truePositives + falseNegatives) }
    /// The harmonic mean of precision and recall; `nil` where either is,
    /// or both are 0.
    public var f1: Double? {
        guard let precision, let recall, precision + recall > 0 else { return nil }
        return 2 * precision * recall / (precision + recall)
    }

    /// The scores of `matching` restricted to the events of `kind` (`nil`:
    /// every kind).
    public init(_ matching: EventMatching, truth: [ScoredEvent], detected: [ScoredEvent], kind: ScoredEvent.Kind?) {
        let truthKinds = truth.map(\.kind)
        let detectedKinds = detected.map(\.kind)
        let matches = matching.matches.filter { kind == nil || truthKinds[$0.truth] == kind }
        self.init(
            truePositives: matches.count,
            falsePositives: matching.unmatchedDetections.filter { kind == nil || detectedKinds[$0] == kind }.count,
            falseNegatives: matching.missedTruth.filter { kind == nil || truthKinds[$0] == kind }.count,
            sortedLatencies: matches.map(\.latency).sorted())
    }

    /// Scores from their counts and the matches' latencies, ascending:
    /// what the shards of a run (`--shard`) add up to.
    public init(truePositives: Int, falsePositives: Int, falseNegatives: Int, sortedLatencies sorted: [Double]) {
        precondition(sorted.count == truePositives, "one latency per match")
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        latency = Latency(
            p50: percentile(0.5, ofSorted: sorted), p90: percentile(0.9, ofSorted: sorted),
            p95: percentile(0.95, ofSorted: sorted), max: sorted.last)
    }

    private func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }
}
