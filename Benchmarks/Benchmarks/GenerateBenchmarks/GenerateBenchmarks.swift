import Benchmark
import FeedParsing
import Foundation
import Pipeline
import Simulation

/// Generation as `repeat-sim generate` does it: a car at 1 Hz along a city
/// loop with urban error, encoded in each format and written to a file.
/// One iteration writes 1M fixes, so fixes per second = 1M / wall clock;
/// peak memory stays flat whatever the feed's length (the simulator and the
/// writer stream). `repeat-sim bench --generate N` measures the same job
/// next to decoding its output in the same run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(10), maxIterations: 10)

    let fixes = 1_000_000
    for format in FeedFormat.written {
        Benchmark("generate \(format.rawValue), 1M fixes") { benchmark in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("repeat-generate-bench.\(format.rawValue)")
                .path
            defer { try? FileManager.default.removeItem(atPath: path) }
            benchmark.startMeasurement()
            let result = try GenerateBench.run(fixes: fixes, format: format, environment: .urban, path: path, parses: false)
            benchmark.stopMeasurement()
            precondition(result.fixes == fixes, "every fix written")
        }
    }
}
