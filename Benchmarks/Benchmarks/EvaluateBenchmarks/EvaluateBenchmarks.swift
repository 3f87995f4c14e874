import Benchmark
import BenchmarkWorkloads
import Evaluation
import FeedParsing
import GeoCore
import Geofencing
import Pipeline

/// `repeat-sim evaluate`'s costs beside `replay`'s, in one run: the true
/// events of a 1-s truth of 1M points, a 16-setting sweep on the 1M-fix
/// NMEA walk (decoded once, settings on every core, the walk itself as the
/// truth) with feed and truth kept (as for `--report` of a FEED from a
/// pipe) and streamed (as the command runs files), the report's detail of
/// the best setting gathered from the walk read again, and one replay of
/// the same file over the same 10 000 regions. The target: the
/// sweep in less than 6× the replay, the truth events under 0.5 s.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 5)
    let fixes = 1_000_000
    let regions = ReplayWorkload.regions(count: 10_000, tasks: 1)

    Benchmark("truth events, 1-s truth of 1M points, 10k regions") { benchmark in
        var walk = GeofenceWorkload(layout: .city, seed: 21)
        let truth = walk.walks(count: fixes, tracks: 1).enumerated().map { second, point in
            TruthPoint(time: Timestamp(nanoseconds: (ReplayWorkload.start + Int64(second)) * 1_000_000_000), coordinate: point)
        }
        let finder = TrueEventFinder(regions: regions)
        benchmark.startMeasurement()
        let events = finder.events(along: truth, device: nil)
        benchmark.stopMeasurement()
        precondition(!events.isEmpty, "the walk crosses fences")
        blackHole(events)
    }

    Benchmark("evaluate sweep, 16 settings, 1M-fix NMEA, 10k regions") { benchmark in
        let path = try WalkFile.path(.nmea, fixes: fixes)
        benchmark.startMeasurement()
        var delivered: [Fix] = []
        var truth = TruthTrackBuilder()
        try FeedFileDecoding.decode(path: path, format: nil, options: FeedDecodingOptions()) { batch in
            delivered.append(contentsOf: batch.fixes)
            for fix in batch.fixes { truth.add(fix) }
            return true
        }
        let subject = EvaluationSubject(fixes: delivered, truth: .tracks(truth.finish()))
        let runner = EvaluationRunner(
            evaluation: FeedEvaluation(regions: regions, tasks: [], reminderSettings: .init()), settings: sweep(),
            window: MatchWindow())
        let rows = runner.rows(for: subject)
        benchmark.stopMeasurement()
        precondition(rows.count == 16 && rows[0].scores.enter.truePositives > 0, "every setting scored")
        blackHole(rows)
    }

    Benchmark("evaluate sweep streamed, 16 settings, 1M-fix NMEA, 10k regions") { benchmark in
        let path = try WalkFile.path(.nmea, fixes: fixes)
        benchmark.startMeasurement()
        let swept = try StreamedSweep(path: path, regions: regions)
        benchmark.stopMeasurement()
        precondition(swept.rows.count == 16 && swept.rows[0].scores.enter.truePositives > 0, "every setting scored")
        blackHole(swept)
    }

    Benchmark("evaluate report detail, best of 16 settings, 1M-fix NMEA read again") { benchmark in
        // The streamed sweep first (not measured), then what --report adds:
        // the plan of the best setting's detail, the walk read once more
        // into its gatherers, and the page.
        let path = try WalkFile.path(.nmea, fixes: fixes)
        let swept = try StreamedSweep(path: path, regions: regions)
        let reporter = EvaluationReporter(
            evaluation: swept.evaluation, window: MatchWindow(), expectations: [], subtitle: "")
        benchmark.startMeasurement()
        let plan = reporter.plan(rows: swept.rows, truth: swept.truth, detections: swept.detections, span: swept.span)
        let (gatheredFixes, gatheredTruth) = plan.gatherers()
        try FeedFileDecoding.decode(path: path, format: nil, options: FeedDecodingOptions()) { batch in
            for fix in batch.fixes {
                gatheredFixes.add(fix)
                gatheredTruth.add(fix)
            }
            return true
        }
        let html = reporter.html(rows: swept.rows, plan: plan, fixes: gatheredFixes, truth: gatheredTruth, runs: 1)
        benchmark.stopMeasurement()
        precondition(html.contains("class=\"map\""), "the regions drawn")
        blackHole(html)
    }

    Benchmark("replay NMEA, 1M fixes, the same 10k regions") { benchmark in
        let path = try WalkFile.path(.nmea, fixes: fixes)
        var pipeline = ReminderPipeline(
            reminders: ReminderStage(tasks: [], regions: regions, settings: .init()), geofence: GeofenceSettings(),
            reorderSeconds: 5)
        var events: [ReminderPipeline.Event] = []
        benchmark.startMeasurement()
        try FeedFileDecoding.decode(path: path, format: nil, options: FeedDecodingOptions()) { batch in
            events.removeAll(keepingCapacity: true)
            for fix in batch.fixes { pipeline.push(fix, into: &events) }
            return true
        }
        pipeline.finish(into: &events)
        benchmark.stopMeasurement()
        precondition(pipeline.statistics.detector.accepted == fixes, "every fix evaluated")
    }
}

/// The 16-setting sweep on a walk file as `evaluate` runs it without
/// `--report`: every setting detects on each read, the walk (its own truth)
/// is scanned as it comes, nothing is kept.
private struct StreamedSweep {
    let evaluation: FeedEvaluation
    let truth: FeedEvaluation.Truth
    let detections: [FeedEvaluation.Detection]
    let rows: [EvaluationRunner.Row]
    /// The walk's first and last fix time.
    let span: (start: Timestamp, end: Timestamp)

    init(path: String, regions: [Region]) throws {
        evaluation = FeedEvaluation(regions: regions, tasks: [], reminderSettings: .init())
        let runner = EvaluationRunner(evaluation: evaluation, settings: sweep(), window: MatchWindow())
        let detection = SweepDetection(evaluation: evaluation, settings: runner.settings, jobs: runner.jobs)
        var scanner = TruthScanner(evaluation: evaluation)
        try FeedFileDecoding.decode(path: path, format: nil, options: FeedDecodingOptions()) { batch in
            detection.decoded(batch, feed: path)
            for fix in batch.fixes { scanner.add(fix) }
            return true
        }
        truth = evaluation.truth(scanned: &scanner, feedDevices: detection.feedDevices)
        detections = detection.detections(devices: truth.devices)
        rows = runner.rows(truth: truth, detections: detections)
        span = detection.span.value
    }
}

/// hysteresis 0/25 × confirm 1/2 × exit-confirm 1/2 × cross on/off.
private func sweep() -> [EvaluationSetting] {
    var settings: [EvaluationSetting] = []
    for hysteresis in [0.0, 25] {
        for confirm in [1, 2] {
            for exitConfirm in [1, 2] {
                for cross in [true, false] {
                    settings.append(
                        EvaluationSetting(
                            geofence: GeofenceSettings(
                                hysteresis: hysteresis, confirm: confirm, exitConfirm: exitConfirm, reportsCross: cross),
                            reorderSeconds: 5, monitorLimit: nil))
                }
            }
        }
    }
    return settings
}
