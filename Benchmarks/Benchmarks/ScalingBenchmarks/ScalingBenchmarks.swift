import Benchmark
import BenchmarkWorkloads
import FeedParsing
import Foundation
import Geofencing
import Pipeline

/// How replay's cost grows with what users have many of, each dimension
/// alone against the end-to-end workload of ReplayBenchmarks (1 Hz walks,
/// city regions, tasks of every schedule kind), run as `repeat-sim replay`
/// runs it (``FeedRun``, 1 MiB reads):
/// - devices: 200 000 fixes from 1, 1 000 and 100 000 devices (one CSV);
/// - tasks: 100 000 fixes against 1 000 and 100 000 tasks;
/// - regions: 100 000 fixes among 10 000, 100 000 and 1 000 000 regions;
/// - jobs: the 1M-fix NMEA walk with `--jobs` 1, 2 and 4 (one device: the
///   decoding thread and the tasks' side run beside the stages).
/// Compare the rows of one dimension, from one run, on one machine.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 3)

    for devices in [1, 1_000, 100_000] {
        Benchmark("devices: 200k fixes from \(devices) device\(devices == 1 ? "" : "s"), 10k regions, 1k tasks") {
            benchmark in
            let path = try FleetFile.path(devices: devices, fixes: 200_000)
            try replay([path], tasks: 1_000, regions: 10_000, jobs: 1, benchmark)
        }
    }
    for tasks in [1_000, 100_000] {
        Benchmark("tasks: 100k fixes, 10k regions, \(tasks / 1_000)k tasks") { benchmark in
            try replay([try WalkFile.path(.nmea, fixes: 100_000)], tasks: tasks, regions: 10_000, jobs: 1, benchmark)
        }
    }
    for regions in [10_000, 100_000, 1_000_000] {
        Benchmark("regions: 100k fixes, \(regions / 1_000)k regions, 1k tasks") { benchmark in
            try replay([try WalkFile.path(.nmea, fixes: 100_000)], tasks: 1_000, regions: regions, jobs: 1, benchmark)
        }
    }
    for jobs in [1, 2, 4] {
        Benchmark("jobs: 1M fixes, 10k regions, 1k tasks, --jobs \(jobs)") { benchmark in
            try replay([try WalkFile.path(.nmea, fixes: 1_000_000)], tasks: 1_000, regions: 10_000, jobs: jobs, benchmark)
        }
    }
}

/// One replay of `feeds` (an iteration), measured from the first read to
/// the last reminder; the stages are set up before.
private func replay(_ feeds: [String], tasks: Int, regions: Int, jobs: Int, _ benchmark: Benchmark) throws {
    let stage = ReminderStage(
        tasks: ReplayWorkload.tasks(count: tasks), regions: ReplayWorkload.regions(count: regions, tasks: tasks),
        settings: .init())
    let pipeline = ReminderPipeline(reminders: stage, geofence: GeofenceSettings(), reorderSeconds: 5)
    var settings = RunSettings(label: "bench", format: nil, decoding: FeedDecodingOptions())
    settings.jobs = jobs
    settings.reportsDiagnostics = false
    let reminders = ReminderCount()
    benchmark.startMeasurement()
    let result = FeedRun(settings: settings, stage: .pipeline(pipeline), sinks: [reminders]).run(files: feeds)
    benchmark.stopMeasurement()
    precondition(result.unreadable.isEmpty && result.pipeline?.detector.accepted ?? 0 > 0, "the feed replayed")
    blackHole(reminders.count)
}

/// Counts the reminders, so that nothing is optimised away.
private final class ReminderCount: RunSink {
    var count = 0
    var receivesFixes: Bool { false }
    func receive(_ event: ReminderPipeline.Event) {
        if case .reminder(.notify) = event { count += 1 }
    }
}
