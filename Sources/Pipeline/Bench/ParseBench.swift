import FeedParsing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bench --parse FILE`: decode throughput of one feed file, read from
/// disk in 1 MiB chunks exactly as `decode` reads it (fixes are built,
/// not printed). Runs three times and reports the fastest, so that a
/// cold page cache or a noisy neighbour does not decide the figure.
public struct ParseBench: Sendable {
    /// The feed file.
    public let path: String
    /// Its format; `nil` detects it.
    public let format: FeedFormat?
    /// Runs measured; the fastest is reported.
    public static let runs = 3

    /// What the fastest run measured.
    public struct Measurement: Sendable {
        /// The format decoded.
        public var format: FeedFormat?
        /// Bytes of the file.
        public var bytes = 0
        /// Fixes decoded.
        public var fixes = 0
        /// Records skipped with a diagnostic.
        public var skipped = 0
        /// Wall-clock seconds of the run.
        public var seconds = Double.infinity
    }

    /// A measurement of `path` in `format` (`nil`: detect it).
    public init(path: String, format: FeedFormat?) {
        self.path = path
        self.format = format
    }

    /// Decodes the file ``runs`` times and returns the fastest run.
    /// - Throws: `FileReadError` when the file cannot be read.
    public func run() throws -> Measurement {
        var best = Measurement()
        for _ in 0..<Self.runs {
            var current = Measurement()
            let start = Self.now()
            let decoder = try FeedFileDecoding.decode(path: path, format: format, options: FeedDecodingOptions()) { batch in
                current.fixes += batch.fixes.count
                current.skipped += batch.diagnostics.count
                return true
            }
            current.seconds = Self.now() - start
            current.format = decoder.format
            current.bytes = Self.fileSize(path)
            if current.seconds < best.seconds { best = current }
        }
        return best
    }

    /// The process's peak resident set size in MiB (getrusage's ru_maxrss, KiB on Linux).
    public static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// One JSON object: `{"file":…,"format":…,"bytes":…,"fixes":…,"skipped":…,"seconds":…,"fixes_per_s":…,"mb_per_s":…,"peak_rss_mb":…}`.
    public static func json(_ m: Measurement, path: String) -> String {
        var bytes: [UInt8] = []
        FixJSONEncoder.appendString(path, to: &bytes)
        let file = String(decoding: bytes, as: UTF8.self)
        return "{\"file\":\(file),\"format\":\"\(m.format?.rawValue ?? "unknown")\",\"bytes\":\(m.bytes),\"fixes\":\(m.fixes),"
            + "\"skipped\":\(m.skipped),\"seconds\":\(rounded(m.seconds, 4)),\"fixes_per_s\":\(Int(Double(m.fixes) / m.seconds)),"
            + "\"mb_per_s\":\(rounded(Double(m.bytes) / 1e6 / m.seconds, 1)),\"peak_rss_mb\":\(rounded(peakResidentMegabytes(), 1))}"
    }

    /// A readable report.
    public static func text(_ m: Measurement, path: String) -> String {
        """
        \(path) (\(m.format?.rawValue ?? "unknown")): \(m.bytes) bytes, \(m.fixes) fixes, \(m.skipped) skipped
          best of \(runs): \(ElapsedText.of(m.seconds)) = \(RateText.of(Double(m.fixes) / m.seconds)) fixes/s, \(rounded(Double(m.bytes) / 1e6 / m.seconds, 1)) MB/s
          peak RSS: \(rounded(peakResidentMegabytes(), 1)) MiB
        """
    }

    private static func rounded(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return ((value * scale).rounded() / scale).description
    }
}
