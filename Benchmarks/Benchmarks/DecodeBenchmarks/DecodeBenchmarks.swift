import Benchmark
import BenchmarkWorkloads
import FeedParsing
import Pipeline

/// Decoding as `repeat-sim decode` does it: a feed file read in 1 MiB
/// chunks through the format's decoder, fixes counted and dropped. One
/// iteration decodes the 1M-fix walk once, so fixes per second = 1M /
/// wall clock. Peak memory stays flat whatever the file's length (the
/// decoders stream). `Scripts/bench-decode.sh` measures the same formats
/// on ../shared/bench's files next to the C floor parser, gpsdecode,
/// `xmllint --stream` and gpsbabel.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(10), maxIterations: 10)

    let fixes = 1_000_000
    for format in WalkFile.Format.allCases {
        Benchmark("decode \(format.rawValue), 1M fixes") { benchmark in
            let path = try WalkFile.path(format, fixes: fixes)
            var decoded = 0
            benchmark.startMeasurement()
            try FeedFileDecoding.decode(path: path, format: FeedFormat(rawValue: format.rawValue), options: FeedDecodingOptions())
            { batch in
                decoded += batch.fixes.count
                return true
            }
            benchmark.stopMeasurement()
            precondition(decoded == fixes, "every fix decoded")
        }
    }
}
