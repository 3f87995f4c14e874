import Evaluation

extension EvaluationRunner.Row {
    /// The row as DESIGN.md's JSON object: `setting`, `enter`, `exit`,
    /// `all`, `visits`, `false_entries_per_100h`, `device_hours`, `km`;
    /// then `reminders` when tasks were scored, `runs` and the `*_ci95`
    /// intervals when runs were pooled, and `expectations_met` with
    /// `failed` when expectations were given.
    public func json(expectations: [Expectation]) -> String {
        let pooled = runs > 1
        var line = JSONLine()
        var setting = JSONLine()
        for parameter in self.setting.parameters {
            switch parameter.value {
            case .number(let number) where number == number.rounded() && abs(number) < 1e15:
                setting.add(parameter.name, Int(number))
            case .number(let number): setting.add(parameter.name, number)
            case .word(let word): setting.add(parameter.name, word)
            }
        }
        line.add("setting", object: setting)
        line.add("enter", object: Self.json(scores.enter, intervals: pooled))
        line.add("exit", object: Self.json(scores.exit, intervals: pooled))
        line.add("all", object: Self.json(scores.all, intervals: pooled))
        var visits = JSONLine()
        visits.add("true", scores.visits.visits)
        visits.add("recalled", scores.visits.recalled)
        visits.add("recall", scores.visits.recall)
        if pooled {
            visits.add(
                "recall_ci95",
                interval: ConfidenceInterval.wilson(successes: scores.visits.recalled, trials: scores.visits.visits))
        }
        line.add("visits", object: visits)
        line.add("false_entries_per_100h", scores.falseEntriesPer100h)
        if pooled { line.add("false_entries_per_100h_ci95", interval: falseEntriesInterval?.interval) }
        line.add("device_hours", scores.coverage?.deviceHours)
        // Kilometres to the metre: the truth as written to a file is
        // rounded to a centimetre, and the digits below would differ.
        line.add("km", scores.coverage.map { ($0.kilometres * 1000).rounded() / 1000 })
        if let reminders = scores.reminders { line.add("reminders", object: Self.json(reminders, intervals: pooled)) }
        if pooled { line.add("runs", runs) }
        if !expectations.isEmpty {
            let failed = expectations.filter { !$0.holds(for: scores) }
            line.add("expectations_met", failed.isEmpty)
            line.add("failed", strings: failed.map(\.description))
        }
        return line.string
    }

    private static func json(_ metrics: DetectionMetrics, intervals: Bool) -> JSONLine {
        var object = JSONLine()
        object.add("tp", metrics.truePositives)
        object.add("fp", metrics.falsePositives)
        object.add("fn", metrics.falseNegatives)
        object.add("precision", metrics.precision)
        object.add("recall", metrics.recall)
        object.add("f1", metrics.f1)
        var latency = JSONLine()
        // Latencies are differences of millisecond times: microseconds
        // keep every digit an interpolation adds, without binary noise.
        func rounded(_ seconds: Double?) -> Double? { seconds.map { ($0 * 1e6).rounded() / 1e6 } }
        latency.add("p50", rounded(metrics.latency.p50))
        latency.add("p90", rounded(metrics.latency.p90))
        latency.add("p95", rounded(metrics.latency.p95))
        latency.add("max", rounded(metrics.latency.max))
        object.add("latency_s", object: latency)
        if intervals {
            let tp = metrics.truePositives
            object.add(
                "precision_ci95", interval: ConfidenceInterval.wilson(successes: tp, trials: tp + metrics.falsePositives))
            object.add("recall_ci95", interval: ConfidenceInterval.wilson(successes: tp, trials: tp + metrics.falseNegatives))
        }
        return object
    }
}
