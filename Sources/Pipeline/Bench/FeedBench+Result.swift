extension FeedBench {
    /// What a ``FeedBench`` measured; ``metrics`` names the figures.
    public struct Result: Sendable {
        /// The feed files.
        public var feeds: [String] = []
        /// The shard measured (`nil`: the whole run).
        public var shard: Shard?
        /// Fixes decoded (per run).
        public var fixes = 0
        /// Devices whose fixes the pipeline evaluated.
        public var devices = 0
        /// Regions watched (bulk regions and task places).
        public var regions = 0
        /// Transitions of every kind (per run).
        public var transitions = 0
        /// Reminders (per run); `nil` for a shard, whose reminders come
        /// from `repeat-sim merge`.
        public var reminders: Int? = 0
        /// The fastest decode-only run, in seconds.
        public var decodeSeconds = Double.infinity
        /// The fastest pipeline run, in seconds.
        public var pipelineSeconds = Double.infinity
        /// The pipeline's rate over the decoder's alone, in CPU time
        /// measured in lockstep (``StageShare``).
        public var pipelineVsDecode: Double?
        /// The fewest heap allocations of a decode-only run (`nil`: not counted).
        public var decodeAllocations: UInt64?
        /// The fewest heap allocations of a pipeline run (`nil`: not counted).
        public var pipelineAllocations: UInt64?
        /// The fewest instructions of a pipeline run (`nil`: no counter).
        public var pipelineInstructions: Int64?
        /// Bytes the spatial grid holds.
        public var indexBytes = 0
        /// The grid against the brute force on a sample of the fixes.
        public var index = IndexComparison()
        /// The process's peak resident memory.
        public var peakRSSMegabytes = 0.0
        /// Why a figure is missing, one sentence each.
        public var notes: [String] = []
        /// Feeds that could not be read, with the reason.
        public var unreadable: [String] = []

        /// An empty result.
        public init() {}

        /// Whether the index answered every sampled fix as the brute force did.
        public var indexAgrees: Bool { index.disagreements == 0 }

        /// The figures, in report order, under their JSON names.
        public var metrics: [BenchMetric] {
            let fixes = Double(self.fixes)
            func perFix(_ count: Double?, _ scale: Double) -> Double? {
                guard let count, fixes > 0 else { return nil }
                return count * scale / fixes
            }
            func rate(_ seconds: Double) -> Double? { seconds.isFinite && fixes > 0 ? fixes / max(seconds, 1e-9) : nil }
            return [
                BenchMetric("fixes", "fixes", fixes, kind: .count, higherIsBetter: true, decimals: 0),
                BenchMetric("devices", "devices", Double(devices), kind: .count, higherIsBetter: true, decimals: 0),
                BenchMetric("regions", "regions", Double(regions), kind: .count, higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "transitions", "transitions", Double(transitions), kind: .count, higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "reminders", "reminders", reminders.map(Double.init), kind: .count, higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "fixes_per_s", "fixes/s through the pipeline", rate(pipelineSeconds), kind: .absolute,
                    higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "decode_fixes_per_s", "fixes/s decoded only", rate(decodeSeconds), kind: .absolute,
                    higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "index_positions_per_s", "positions per CPU second, spatial grid", index.indexPositionsPerSecond,
                    kind: .absolute, higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "bruteforce_positions_per_s", "positions per CPU second, brute force", index.referencePositionsPerSecond,
                    kind: .absolute, higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "peak_rss_mb", "peak resident memory (MB)", peakRSSMegabytes, kind: .absolute,
                    higherIsBetter: false, decimals: 1),
                BenchMetric(
                    "pipeline_vs_decode", "pipeline rate / decode rate (CPU time)", pipelineVsDecode, kind: .ratio,
                    higherIsBetter: true, decimals: 3),
                BenchMetric(
                    "index_vs_bruteforce", "grid rate / brute-force rate (CPU time)", index.speedup, kind: .ratio,
                    higherIsBetter: true, decimals: 1),
                BenchMetric(
                    "candidates_per_position", "regions tested per position", index.candidatesPerPosition,
                    kind: .loadIndependent, higherIsBetter: false, decimals: 3),
                BenchMetric(
                    "bytes_per_region", "index bytes per region", regions > 0 ? Double(indexBytes) / Double(regions) : nil,
                    kind: .loadIndependent, higherIsBetter: false, decimals: 1),
                BenchMetric(
                    "allocations_per_1k_fixes", "heap allocations per 1k fixes, pipeline",
                    perFix(pipelineAllocations.map { Double($0) }, 1000), kind: .loadIndependent, higherIsBetter: false,
                    decimals: 2),
                BenchMetric(
                    "decode_allocations_per_1k_fixes", "heap allocations per 1k fixes, decode only",
                    perFix(decodeAllocations.map { Double($0) }, 1000), kind: .loadIndependent, higherIsBetter: false,
                    decimals: 2),
                BenchMetric(
                    "instructions_per_fix", "instructions per fix, pipeline",
                    perFix(pipelineInstructions.map { Double($0) }, 1), kind: .loadIndependent, higherIsBetter: false,
                    decimals: 1),
                BenchMetric(
                    "bruteforce_sample", "fixes sampled for the brute force", Double(index.sample), kind: .count,
                    higherIsBetter: true, decimals: 0),
                BenchMetric(
                    "bruteforce_disagreements", "sampled fixes where grid and brute force differ",
                    Double(index.disagreements), kind: .count, higherIsBetter: false, decimals: 0),
            ]
        }
    }

    /// The names `--expect` and the JSON use, in report order.
    public static let metricNames = Result().metrics.map(\.name)
    /// The names of the figures `--baseline` compares, in report order.
    public static let gatedMetricNames = Result().metrics.filter(\.kind.isGatedByBaseline).map(\.name)
}
