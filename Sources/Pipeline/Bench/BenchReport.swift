import FeedParsing

/// The outcome of `bench --feed`: the figures, the expectations and the
/// baseline checked against them, and the result check (the grid must agree
/// with the brute force), written as JSON, a Markdown table or text.
public struct BenchReport: Sendable {
    /// The measurement.
    public let result: FeedBench.Result
    /// The `--expect` conditions.
    public let expectations: [BenchExpectation]
    /// The `--baseline` file, if any.
    public let baseline: BenchBaseline?
    /// The regression allowed against the baseline, as a fraction.
    public let maxRegression: Double
    /// The baseline's checks (empty without one).
    public let checks: [BenchBaseline.Check]
    /// What the baseline comparison leaves out.
    public let caveats: [String]

    /// The report of `result` checked against `expectations` and `baseline`.
    public init(
        result: FeedBench.Result, expectations: [BenchExpectation], baseline: BenchBaseline?, maxRegression: Double
    ) {
        self.result = result
        self.expectations = expectations
        self.baseline = baseline
        self.maxRegression = maxRegression
        let metrics = result.metrics
        checks = baseline?.compare(metrics, maxRegression: maxRegression) ?? []
        caveats = baseline?.caveats(metrics, shard: result.shard?.text) ?? []
    }

    /// Why the run fails, one sentence each (empty: it passes).
    public var failures: [String] {
        let metrics = result.metrics
        var failures: [String] = []
        if !result.indexAgrees {
            failures.append(
                "wrong results: the spatial grid disagrees with the brute force on \(result.index.disagreements) of "
                    + "\(result.index.sample) sampled fixes")
        }
        for expectation in expectations where !expectation.holds(in: metrics) {
            let value = expectation.value(in: metrics).map { "is \(number($0))" } ?? "was not measured"
            failures.append("expectation failed: \(expectation) (\(expectation.name) \(value))")
        }
        for check in checks where !check.holds {
            failures.append(
                "regression: \(check.name) is \(number(check.value)), \(percent(check.regression)) worse than "
                    + "the baseline's \(number(check.baseline)) (allowed: \(percent(maxRegression)))")
        }
        return failures
    }

    /// Whether every check passed.
    public var passed: Bool { failures.isEmpty }

    /// One JSON object: the feeds, the shard (`"I/N"`, or `null` for the
    /// whole run), every figure under its name (`null` where not measured),
    /// `bruteforce_agrees`, `notes`, `expectations`,
    /// `baseline` and `passed`. `--save` writes it, `--baseline` reads it.
    public var json: String {
        var fields: [String] = ["\"feeds\":[\(result.feeds.map(quoted).joined(separator: ","))]"]
        fields.append("\"shard\":\(result.shard.map { quoted($0.text) } ?? "null")")
        fields += result.metrics.map { "\(quoted($0.name)):\($0.jsonValue)" }
        fields.append("\"bruteforce_agrees\":\(result.indexAgrees)")
        fields.append("\"notes\":[\(result.notes.map(quoted).joined(separator: ","))]")
        let metrics = result.metrics
        let expected = expectations.map { expectation in
            "{\"expect\":\(quoted(expectation.description)),\"value\":"
                + "\(expectation.value(in: metrics).map { number($0) } ?? "null"),\"holds\":\(expectation.holds(in: metrics))}"
        }
        fields.append("\"expectations\":[\(expected.joined(separator: ","))]")
        if let baseline {
            let compared = checks.map { check in
                "{\"metric\":\(quoted(check.name)),\"baseline\":\(number(check.baseline)),\"value\":\(number(check.value)),"
                    + "\"regression\":\(check.regression.isFinite ? BenchMetric.format(check.regression, decimals: 4) : "null"),"
                    + "\"holds\":\(check.holds)}"
            }
            fields.append(
                "\"baseline\":{\"file\":\(quoted(baseline.path)),\"max_regression\":\(BenchMetric.format(maxRegression, decimals: 4)),"
                    + "\"compared\":[\(compared.joined(separator: ","))],"
                    + "\"caveats\":[\(caveats.map(quoted).joined(separator: ","))]}")
        } else {
            fields.append("\"baseline\":null")
        }
        fields.append("\"passed\":\(passed)")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The change of `metric` against the baseline, signed, as text (`nil`
    /// without a baseline value to divide by).
    func change(_ metric: BenchMetric) -> String? {
        guard let value = metric.value, let base = baseline?.values[metric.name], base != 0 else { return nil }
        let change = value / base - 1
        return (change >= 0 ? "+" : "−") + percent(abs(change))
    }

    /// The baseline's check of the figure `name`, if it was compared.
    func check(_ name: String) -> BenchBaseline.Check? { checks.first { $0.name == name } }

    /// `value` with at most three decimals.
    func number(_ value: Double) -> String { BenchMetric.format(value, decimals: abs(value) >= 100 ? 0 : 3) }

    /// A fraction as a percentage with one decimal.
    func percent(_ fraction: Double) -> String {
        fraction.isFinite ? BenchMetric.format(fraction * 100, decimals: 1) + " %" : "∞ %"
    }

    private func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        FixJSONEncoder.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
