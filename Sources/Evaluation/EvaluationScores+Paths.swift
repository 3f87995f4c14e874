extension EvaluationScores {
    /// The metric paths of the JSON object, as `--expect` names them
    /// (`enter.recall`, `all.latency_s.p90`, `false_entries_per_100h`, …).
    public static let metricPaths: [String] = {
        let metrics = ["tp", "fp", "fn", "precision", "recall", "f1"] + Self.latencyNames.map { "latency_s.\($0)" }
        let kinds = ["enter", "exit", "all", "reminders"].flatMap { kind in metrics.map { "\(kind).\($0)" } }
        return kinds + ["visits.true", "visits.recalled", "visits.recall", "false_entries_per_100h", "device_hours", "km"]
    }()

    private static let latencyNames = ["p50", "p90", "p95", "max"]

    /// The value at `path`: `.some(nil)` where it is undefined (a ratio of
    /// nothing, no reminders scored), `nil` for a path that is no metric.
    public func value(at path: String) -> Double?? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        switch (parts.first ?? "", parts.count > 1 ? parts[1] : "") {
        case ("enter", let metric): return Self.value(of: enter, metric)
        case ("exit", let metric): return Self.value(of: exit, metric)
        case ("all", let metric): return Self.value(of: all, metric)
        case ("reminders", let metric):
            guard let reminders else { return Self.value(of: nil, metric) }
            return Self.value(of: reminders, metric)
        case ("visits", "true"): return .some(Double(visits.visits))
        case ("visits", "recalled"): return .some(Double(visits.recalled))
        case ("visits", "recall"): return .some(visits.recall)
        case ("false_entries_per_100h", ""): return .some(falseEntriesPer100h)
        case ("device_hours", ""): return .some(coverage?.deviceHours)
        case ("km", ""): return .some(coverage?.kilometres)
        default: return nil
        }
    }

    /// A metric of one kind; `metrics` is `nil` where the kind was not scored.
    private static func value(of metrics: DetectionMetrics?, _ metric: String) -> Double?? {
        switch metric {
        case "tp": return .some(metrics.map { Double($0.truePositives) })
        case "fp": return .some(metrics.map { Double($0.falsePositives) })
        case "fn": return .some(metrics.map { Double($0.falseNegatives) })
        case "precision": return .some(metrics?.precision)
        case "recall": return .some(metrics?.recall)
        case "f1": return .some(metrics?.f1)
        case "latency_s.p50": return .some(metrics?.latency.p50)
        case "latency_s.p90": return .some(metrics?.latency.p90)
        case "latency_s.p95": return .some(metrics?.latency.p95)
        case "latency_s.max": return .some(metrics?.latency.max)
        default: return nil
        }
    }
}
