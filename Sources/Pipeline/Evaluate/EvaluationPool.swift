import Evaluation

/// The truth and detections of one setting over one or more runs, scored
/// together: events of different runs never match each other (each run's
/// devices and tasks are kept apart), counts add up, and latencies are
/// pooled; per-run rates give the intervals of `--runs`.
public struct EvaluationPool: Sendable {
    private var truth: [ScoredEvent] = []
    private var detected: [ScoredEvent] = []
    private var truthReminders: [ScoredEvent]?
    private var detectedReminders: [ScoredEvent] = []
    private var coverage: TruthCoverage?
    private var hasHandLabelledTruth = false
    /// False entries per 100 device-hours of each run, for the interval.
    public private(set) var runRates: [Double] = []
    /// The runs pooled.
    public private(set) var runs = 0

    private let keepsRunRates: Bool

    /// An empty pool; `keepsRunRates` scores each run on its own too, for
    /// ``runRates`` (pooling several runs).
    public init(keepsRunRates: Bool = false) {
        self.keepsRunRates = keepsRunRates
    }

    /// Adds one run's truth and what a setting detected on its feed.
    public mutating func add(truth run: FeedEvaluation.Truth, detection: FeedEvaluation.Detection, window: MatchWindow) {
        runs += 1
        let number = runs
        // The first run's events stay as they are; later runs' devices and
        // tasks are prefixed with the run's number.
        func tagged(_ events: [ScoredEvent]) -> [ScoredEvent] {
            guard number > 1 else { return events }
            return events.map { event in
                var event = event
                event.device = "\(number)\u{1F}\(event.device ?? "")"
                return event
            }
        }
        truth.append(contentsOf: tagged(run.events))
        detected.append(contentsOf: tagged(detection.events))
        if let reminders = run.reminders {
            truthReminders = (truthReminders ?? []) + tagged(reminders)
            detectedReminders.append(contentsOf: tagged(detection.reminders))
        }
        if let runCoverage = run.coverage {
            coverage = (coverage ?? TruthCoverage()).adding(runCoverage)
            guard keepsRunRates else { return }
            let alone = EvaluationScores(
                truth: run.events, detected: detection.events, window: window, coverage: runCoverage)
            if let rate = alone.falseEntriesPer100h { runRates.append(rate) }
        } else {
            hasHandLabelledTruth = true
        }
    }

    /// The scores of everything pooled.
    public func scores(window: MatchWindow) -> EvaluationScores {
        EvaluationScores(
            truth: truth, detected: detected, window: window, coverage: hasHandLabelledTruth ? nil : coverage,
            reminders: truthReminders.map { ($0, detectedReminders) })
    }
}
