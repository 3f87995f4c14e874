import Foundation

/// A report saved by `bench --save`, read back by `--baseline` to compare the
/// figures that hold on a busy machine: the load-independent ones and the
/// ratios (``BenchMetric/Kind/isGatedByBaseline``). Absolute rates are only
/// shown beside it.
public struct BenchBaseline: Sendable {
    /// The file it came from.
    public let path: String
    /// The numeric figures it holds, by name (`null` ones are absent).
    public let values: [String: Double]
    /// The shard it measured (`"I/N"`), `nil` for a whole run.
    public let shard: String?

    /// The comparison of one figure with the baseline.
    public struct Check: Sendable {
        /// The figure's name.
        public let name: String
        /// The baseline's value.
        public let baseline: Double
        /// This run's value.
        public let value: Double
        /// How much worse this run is, as a fraction of the baseline
        /// (negative: better): `value / baseline − 1` when lower is better,
        /// `1 − value / baseline` when higher is.
        public let regression: Double
        /// Whether the regression is within the allowance.
        public let holds: Bool
    }

    /// The baseline at `path`.
    /// - Throws: ``BenchBaselineError`` when the file cannot be read or is
    ///   no JSON object.
    public static func load(path: String) throws(BenchBaselineError) -> BenchBaseline {
        if isFolder(path) {
            throw BenchBaselineError(message: "--baseline: cannot read \"\(path)\": it is a folder, not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchBaselineError(message: "--baseline: cannot read \"\(path)\": no such file, or not readable")
        }
        return try BenchBaseline(path: path, json: data)
    }

    /// The baseline in `json`, a report of `bench --json`.
    /// - Throws: ``BenchBaselineError`` when it is no JSON object.
    public init(path: String, json: Data) throws(BenchBaselineError) {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw BenchBaselineError(
                message: "--baseline: \"\(path)\" is not a JSON object; write one with bench --feed … --save FILE.json")
        }
        self.path = path
        // Booleans read as numbers too; no figure is one, so they are never looked up.
        values = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        shard = object["shard"] as? String
    }

    /// Throws unless the baseline holds one of `names`, the figures the
    /// bench gates: a baseline that holds none (`{}`, another command's
    /// report) would pass every run while comparing nothing.
    /// - Throws: ``BenchBaselineError`` naming the file and the figures.
    public func requireFigure(among names: [String]) throws(BenchBaselineError) {
        guard !names.contains(where: { values[$0] != nil }) else { return }
        throw BenchBaselineError(
            message: "--baseline: \"\(path)\" holds none of the figures a baseline gates (\(names.joined(separator: ", "))), "
                + "so it would pass any run; write one with bench --feed … --save FILE.json")
    }

    /// The baseline with `values`, of `shard`, for tests.
    public init(path: String, values: [String: Double], shard: String? = nil) {
        self.path = path
        self.values = values
        self.shard = shard
    }

    /// Every gated figure of `metrics` that both this run and the baseline
    /// have, compared; `maxRegression` is the fraction allowed (0.1: 10 %).
    public func compare(_ metrics: [BenchMetric], maxRegression: Double) -> [Check] {
        metrics.compactMap { metric in
            guard metric.kind.isGatedByBaseline, let value = metric.value, let baseline = values[metric.name] else {
                return nil
            }
            let regression: Double
            if baseline == 0 {
                regression = metric.higherIsBetter || value == 0 ? 0 : .infinity
            } else {
                regression = metric.higherIsBetter ? 1 - value / baseline : value / baseline - 1
            }
            return Check(
                name: metric.name, baseline: baseline, value: value, regression: regression,
                holds: regression <= maxRegression)
        }
    }

    /// Sentences about what the comparison leaves out: another shard
    /// (`shard`: this run's, `"I/N"`), gated figures one side lacks, and
    /// workload counts that differ (another feed or other regions make the
    /// comparison meaningless).
    public func caveats(_ metrics: [BenchMetric], shard: String? = nil) -> [String] {
        var caveats: [String] = []
        if shard != self.shard {
            caveats.append(
                "shard: \(shard ?? "the whole run") here, \(self.shard ?? "the whole run") in the baseline "
                    + "(a shard's figures per fix measure other work)")
        }
        for metric in metrics {
            let baseline = values[metric.name]
            if metric.kind.isGatedByBaseline, (metric.value == nil) != (baseline == nil) {
                caveats.append(
                    "\(metric.name): not compared (measured \(metric.value == nil ? "in the baseline only" : "in this run only"))"
                )
            }
            if metric.kind == .count, metric.name != "bruteforce_disagreements", let value = metric.value,
                let baseline, baseline != value
            {
                caveats.append(
                    "\(metric.name): \(BenchMetric.format(value, decimals: 0)) here, "
                        + "\(BenchMetric.format(baseline, decimals: 0)) in the baseline (another workload or changed results?)")
            }
        }
        return caveats
    }
}

/// A baseline file that cannot be used.
public struct BenchBaselineError: Error, CustomStringConvertible {
    /// What is wrong, naming the flag and the file.
    public let message: String
    public var description: String { message }
}
