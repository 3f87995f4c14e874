import Benchmark
import BenchmarkWorkloads
import FeedParsing
import Geofencing
import Pipeline

/// The whole pipeline as `repeat-sim replay` runs it: an NMEA file read in
/// 1 MiB chunks, decoded, put in order, through the geofence detector over
/// 10 000 regions and the recurrence gates of 1 000 tasks. One iteration
/// is one replay of the file; fixes per second = fixes / wall clock. The
/// 100k and 1M runs side by side show that peak memory does not grow with
/// the feed's length. `Scripts/bench-replay.sh` measures the same on
/// ../shared/bench's file, next to the decode-only rate.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(10), maxIterations: 5)

    for fixes in [100_000, 1_000_000] {
        Benchmark("replay NMEA, \(fixes / 1_000)k fixes, 10k regions, 1k tasks") { benchmark in
            let path = try WalkFile.path(.nmea, fixes: fixes)
            let stage = ReminderStage(
                tasks: ReplayWorkload.tasks(count: 1_000), regions: ReplayWorkload.regions(count: 10_000, tasks: 1_000),
                settings: .init())
            var pipeline = ReminderPipeline(reminders: stage, geofence: GeofenceSettings(), reorderSeconds: 5)
            var events: [ReminderPipeline.Event] = []
            var reminders = 0
            benchmark.startMeasurement()
            try FeedFileDecoding.decode(path: path, format: nil, options: FeedDecodingOptions()) { batch in
                events.removeAll(keepingCapacity: true)
                pipeline.push(contentsOf: batch.fixes[...], into: &events)
                for case .reminder(.notify) in events { reminders += 1 }
                return true
            }
            pipeline.finish(into: &events)
            benchmark.stopMeasurement()
            precondition(pipeline.statistics.detector.accepted == fixes, "every fix evaluated")
            blackHole(reminders)
        }
    }
}
