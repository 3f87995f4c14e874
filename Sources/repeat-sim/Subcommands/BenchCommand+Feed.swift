import ArgumentParser
import FeedParsing
import Foundation
import Pipeline

extension BenchCommand {
    /// `bench --feed`: the user's workload through the whole pipeline,
    /// reported, saved and gated (exit 3 on a failed check).
    func runFeed() throws {
        let expectations = try feed.expectations()
        let baseline = try feed.baseline.map(BenchBaseline.load(path:))
        try baseline?.requireFigure(among: FeedBench.gatedMetricNames)
        let regions = try geofence.regions.map { try loadRegions($0, strict: false) } ?? []
        let jobs = feed.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let tasks = try feed.tasks.map { try loadTasks($0, jobs: jobs) } ?? []
        let stages = ReminderPipeline(
            reminders: ReminderStage(tasks: tasks, regions: regions, settings: NotificationScheduler.Settings()),
            geofence: fence.settings, reorderSeconds: fence.reorderSeconds, deviceIdleSeconds: fence.deviceIdleSeconds)
        var settings = RunSettings(label: "bench", format: format.format, decoding: FeedDecodingOptions())
        settings.namesDevicesAfterFiles = true
        settings.jobs = jobs
        let shard = feed.shard.map { FeedBench.Shard(index: $0.index, count: $0.count) }
        let result = FeedBench(feeds: feed.feeds, settings: settings, pipeline: stages, runs: feed.runs, shard: shard)
            .run(progress: ProgressBar(enabled: Console.stderrIsTerminal))
        if !result.unreadable.isEmpty { throw ExitCode(1) }
        if result.fixes == 0 {
            throw ValidationError("no fixes decoded from \(feed.feeds.joined(separator: ", ")); nothing to bench")
        }
        let report = BenchReport(
            result: result, expectations: expectations, baseline: baseline,
            maxRegression: feed.maxRegressionFraction ?? 0.1)
        if let path = feed.save {
            do { try Data((report.json + "\n").utf8).write(to: URL(fileURLWithPath: path)) } catch {
                throw ValidationError("--save: cannot write \"\(path)\": \(error.localizedDescription)")
            }
        }
        print(geofence.json ? report.json : feed.markdown ? report.markdown : report.text)
        if geofence.json {
            for note in result.notes + report.caveats { Console.write("bench: note: \(note)") }
        }
        let failures = report.failures
        for failure in failures { Console.write("bench: \(failure)") }
        if !failures.isEmpty { throw ExitCode(3) }
    }
}
