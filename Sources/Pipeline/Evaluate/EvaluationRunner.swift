import Evaluation
import Foundation
import GeoCore
import Synchronization

/// Runs an evaluation's settings over its feeds on every core: one feed
/// decoded once and its settings in parallel, or `--runs` generated feeds
/// in parallel, each through every setting.
public struct EvaluationRunner: Sendable {
    /// One row of the result: a setting and its scores.
    public struct Row: Sendable {
        /// The setting.
        public var setting: EvaluationSetting
        /// Its scores, pooled over the runs.
        public var scores: EvaluationScores
        /// The runs pooled.
        public var runs: Int
        /// False entries per 100 device-hours, mean over the runs with its
        /// 95 % interval (two runs or more with tracks as truth).
        public var falseEntriesInterval: (mean: Double, interval: ClosedRange<Double>)?
        /// The stages' counts on the first run (fixes evaluated and ignored),
        /// for the summary.
        public var statistics: ReminderPipeline.Statistics
    }

    /// The evaluation.
    public let evaluation: FeedEvaluation
    /// The settings, in the order of the rows.
    public let settings: [EvaluationSetting]
    /// The matching window.
    public let window: MatchWindow
    /// Threads to use.
    public let jobs: Int

    /// A runner of `settings` with `jobs` threads (default: every core).
    public init(
        evaluation: FeedEvaluation, settings: [EvaluationSetting], window: MatchWindow,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.evaluation = evaluation
        self.settings = settings
        self.window = window
        self.jobs = max(1, jobs)
    }

    /// The rows for one feed: its truth found once, the settings run in
    /// parallel; `progress` is called after each setting with the share
    /// done (0…1).
    public func rows(for subject: EvaluationSubject, progress: @Sendable (Double) -> Void = { _ in }) -> [Row] {
        // The truth is found on one worker while the others detect: job 0
        // is the truth, job i the setting i − 1.
        let devices = DeviceMatching(feed: subject.feedDevices, truth: subject.truthDevices)
        let done = Atomic<Int>(0)
        let outcomes = parallelMap(count: settings.count + 1, jobs: jobs) { index -> Job in
            guard index > 0 else { return .truth(evaluation.truth(of: subject)) }
            let detection = evaluation.detect(subject, devices: devices, setting: settings[index - 1])
            progress(Double(done.add(1, ordering: .relaxed).newValue) / Double(settings.count))
            return .detection(detection)
        }
        guard case .truth(let truth) = outcomes[0] else { preconditionFailure("job 0 is the truth") }
        let detections = outcomes.dropFirst().map { outcome in
            guard case .detection(let detection) = outcome else { preconditionFailure("jobs after the first detect") }
            return detection
        }
        return rows(truth: truth, detections: detections)
    }

    /// The rows of one feed's `truth` and what each setting detected on
    /// it (`detections[i]` by `settings[i]`), scored in parallel.
    public func rows(truth: FeedEvaluation.Truth, detections: [FeedEvaluation.Detection]) -> [Row] {
        precondition(detections.count == settings.count, "one detection per setting")
        return parallelMap(count: settings.count, jobs: jobs) { index in
            var pool = EvaluationPool()
            pool.add(truth: truth, detection: detections[index], window: window)
            return row(index, pool: pool, statistics: detections[index].statistics)
        }
    }

    /// What a worker of ``rows(for:progress:)`` made.
    private enum Job: Sendable {
        case truth(FeedEvaluation.Truth)
        case detection(FeedEvaluation.Detection)
    }

    /// The rows over `runs` feeds, run `n` (1…N) scored by `score(n, jobs)`
    /// into its truth and each setting's detection (see
    /// ``FeedEvaluation/score(feed:truth:settings:jobs:)``), with `jobs`
    /// threads to use: runs in parallel, each on one thread, or one run on
    /// all of them; `progress` is called with the share done (0…1).
    public func rows(
        runs: Int, score: @Sendable (_ run: Int, _ jobs: Int) throws -> (FeedEvaluation.Truth, [FeedEvaluation.Detection]),
        progress: @Sendable (Double) -> Void = { _ in }
    ) throws -> [Row] {
        let done = Atomic<Int>(0)
        progress(0)
        let outcomes = parallelMap(count: runs, jobs: jobs) {
            index -> Result<(FeedEvaluation.Truth, [FeedEvaluation.Detection]), any Error> in
            defer { progress(Double(done.add(1, ordering: .relaxed).newValue) / Double(runs)) }
            return Result { try score(index + 1, runs == 1 ? jobs : 1) }
        }
        let runsDone = try outcomes.map { try $0.get() }
        if runs == 1, let (truth, detections) = runsDone.first { return rows(truth: truth, detections: detections) }
        return settings.indices.map { index in
            var pool = EvaluationPool(keepsRunRates: runs > 1)
            for (truth, detections) in runsDone { pool.add(truth: truth, detection: detections[index], window: window) }
            return row(index, pool: pool, statistics: runsDone.first?.1[index].statistics ?? .init())
        }
    }

    private func row(_ index: Int, pool: EvaluationPool, statistics: ReminderPipeline.Statistics) -> Row {
        Row(
            setting: settings[index], scores: pool.scores(window: window), runs: pool.runs,
            falseEntriesInterval: ConfidenceInterval.mean(of: pool.runRates), statistics: statistics)
    }
}
