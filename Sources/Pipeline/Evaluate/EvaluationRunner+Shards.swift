import Evaluation
import GeoCore
import Synchronization

extension EvaluationRunner {
    /// The tallies of `runs` (from 1, a shard's runs of a scenario), each
    /// run scored whole by `score(n, jobs)` as for
    /// ``rows(runs:score:progress:)``, runs in parallel.
    public func tallies(
        runs: [Int],
        score: @Sendable (_ run: Int, _ jobs: Int) throws -> (FeedEvaluation.Truth, [FeedEvaluation.Detection]),
        progress: @Sendable (Double) -> Void = { _ in }
    ) throws -> [EvaluationRunTally] {
        let done = Atomic<Int>(0)
        progress(0)
        let outcomes = parallelMap(count: runs.count, jobs: jobs) { index -> Result<EvaluationRunTally, any Error> in
            defer { progress(Double(done.add(1, ordering: .relaxed).newValue) / Double(runs.count)) }
            return Result {
                let (truth, detections) = try score(runs[index], runs.count == 1 ? jobs : 1)
                return EvaluationRunTally(
                    run: runs[index], truth: truth, detections: detections, window: window, devices: nil)
            }
        }
        return try outcomes.map { try $0.get() }
    }

    /// The rows of `settings` over `runs` runs from every shard's
    /// `tallies`: what ``rows(truth:detections:)`` or
    /// ``rows(runs:score:progress:)`` give on the runs unsharded, to the
    /// bit: counts added, latencies pooled, coverage summed device by
    /// device in the runs' order.
    public static func rows(tallies: [EvaluationRunTally], runs: Int, settings: [EvaluationSetting]) -> [Row] {
        let byRun = Dictionary(grouping: tallies, by: \.run).sorted { $0.key < $1.key }
        return settings.indices.map { index in
            var enter = EvaluationRunTally.KindTally.zero
            var exit = EvaluationRunTally.KindTally.zero
            var visits = 0
            var recalled = 0
            var coverage: TruthCoverage?
            var handLabelled = false
            var rates: [Double] = []
            var statistics = ReminderPipeline.Statistics()
            for (run, shards) in byRun {
                let settings = shards.map { $0.settings[index] }
                let runEnter = settings.map(\.enter).reduce(.zero, +)
                enter = enter + runEnter
                exit = settings.map(\.exit).reduce(exit, +)
                visits += settings.map(\.visits).reduce(0, +)
                recalled += settings.map(\.recalled).reduce(0, +)
                if run == byRun.first?.key {
                    statistics.detector.inaccurate = settings.map(\.inaccurate).reduce(0, +)
                    statistics.detector.invalid = settings.map(\.invalid).reduce(0, +)
                    statistics.untimed = settings.map(\.untimed).reduce(0, +)
                    statistics.late = settings.map(\.late).reduce(0, +)
                }
                guard shards.allSatisfy({ $0.coverage != nil }) else {
                    handLabelled = true
                    continue
                }
                let devices = shards.flatMap { $0.coverage ?? [] }.sorted { $0.place < $1.place }
                let runCoverage = TruthCoverage(
                    summing: devices.map { TruthCoverage(deviceHours: $0.hours, kilometres: $0.km) })
                coverage = (coverage ?? TruthCoverage()).adding(runCoverage)
                if runs > 1, let rate = runCoverage.per100DeviceHours(runEnter.fp) { rates.append(rate) }
            }
            let scores = EvaluationScores(
                enter: enter.metrics, exit: exit.metrics, all: (enter + exit).metrics,
                visits: VisitRecall(visits: visits, recalled: recalled), coverage: handLabelled ? nil : coverage)
            return Row(
                setting: settings[index], scores: scores, runs: runs,
                falseEntriesInterval: ConfidenceInterval.mean(of: rates), statistics: statistics)
        }
    }
}
