import Foundation

extension BenchReport {
    /// A Markdown summary for a CI job (`$GITHUB_STEP_SUMMARY`): a heading
    /// with the verdict, the workload, one table row per figure (value,
    /// baseline, change, whether it is gated), the expectations, the
    /// failures and the notes.
    public var markdown: String {
        var lines = [
            "### repeat-sim bench: \(passed ? "passed" : "FAILED")", "",
            "\(workload). Absolute rates are shown, never gated; the baseline gates "
                + "load-independent figures and ratios measured in the same run.",
            "", "| figure | name | value | baseline | change | gate |", "| --- | --- | ---: | ---: | ---: | --- |",
        ]
        for metric in result.metrics {
            let baseline = self.baseline?.values[metric.name].map { metric.display($0) } ?? ""
            lines.append(
                "| \(metric.label) | `\(metric.name)` | \(metric.value.map { metric.display($0) } ?? "n/a") | \(baseline) | "
                    + "\(change(metric) ?? "") | \(gate(metric)) |")
        }
        if !expectations.isEmpty {
            lines += ["", "| expectation | value | holds |", "| --- | ---: | --- |"]
            let metrics = result.metrics
            for expectation in expectations {
                let value = expectation.value(in: metrics).map { number($0) } ?? "n/a"
                lines.append("| `\(expectation)` | \(value) | \(expectation.holds(in: metrics) ? "✅" : "❌") |")
            }
        }
        let failures = self.failures
        if !failures.isEmpty { lines += [""] + failures.map { "- ❌ \($0)" } }
        let notes = result.notes + caveats
        if !notes.isEmpty { lines += [""] + notes.map { "- \($0)" } }
        return lines.joined(separator: "\n")
    }

    /// The readable report: one line per figure, then expectations, failures
    /// and notes.
    public var text: String {
        let metrics = result.metrics
        let width = metrics.map(\.label.count).max() ?? 0
        var lines = [workload]
        for metric in metrics {
            var line =
                metric.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (metric.value.map { metric.display($0) } ?? "n/a")
            if let base = baseline?.values[metric.name] {
                line +=
                    "  (baseline \(metric.display(base))\(change(metric).map { ", \($0)" } ?? "")"
                    + "\(check(metric.name).map { $0.holds ? ", ok" : ", REGRESSION" } ?? ""))"
            }
            lines.append(line)
        }
        for expectation in expectations {
            lines.append("expect \(expectation): \(expectation.holds(in: metrics) ? "ok" : "FAILED")")
        }
        lines += (result.notes + caveats).map { "note: \($0)" }
        lines.append(passed ? "bench: passed" : "bench: FAILED")
        return lines.joined(separator: "\n")
    }

    /// The workload in one sentence.
    private var workload: String {
        let feeds = result.feeds.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let devices = "\(result.devices) device\(result.devices == 1 ? "" : "s")"
        let source =
            result.shard.map { "\(result.fixes) fixes decoded, the \(devices) of shard \($0.text) evaluated" }
            ?? "\(result.fixes) fixes from \(devices)"
        return "\(feeds): \(source), \(result.regions) regions; fastest of the runs, brute force on "
            + "\(result.index.sample) sampled fixes"
    }

    /// The gate column of a figure.
    private func gate(_ metric: BenchMetric) -> String {
        if metric.name == "bruteforce_disagreements" { return result.indexAgrees ? "✅ must be 0" : "❌ must be 0" }
        guard metric.kind.isGatedByBaseline else { return "" }
        let allowance = "≤ \(percent(maxRegression)) worse"
        guard let check = check(metric.name) else { return baseline == nil ? "" : "not compared" }
        return (check.holds ? "✅ " : "❌ ") + allowance
    }
}
