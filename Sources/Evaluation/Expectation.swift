import GeoCore

/// A condition on one metric, for CI (`--expect 'enter.recall>=0.95'`):
/// a metric path as in the JSON, a comparison, and a number — a duration
/// may carry its unit (`enter.latency_s.p90<=30s`, `2m`, `250ms`, `1h`)
/// and a ratio may be a percentage (`95%`).
public struct Expectation: Hashable, Sendable, CustomStringConvertible {
    /// A comparison.
    public enum Comparison: String, Hashable, Sendable, CaseIterable {
        case atLeast = ">="
        case atMost = "<="
        case equal = "=="
        case greater = ">"
        case less = "<"

        /// `text` without spaces, split at its comparison into the name
        /// before it and the value after it; `nil` without a comparison.
        /// Two-character comparisons are tried first, so that `>=` is not
        /// read as `>`.
        public static func split(_ text: String) -> (name: String, comparison: Comparison, value: String, compact: String)? {
            let compact = text.filter { !$0.isWhitespace }
            for comparison in allCases {
                if let range = compact.range(of: comparison.rawValue) {
                    return (String(compact[..<range.lowerBound]), comparison, String(compact[range.upperBound...]), compact)
                }
            }
            return nil
        }

        /// Whether `left` compares so with `right`.
        public func holds(_ left: Double, _ right: Double) -> Bool {
            switch self {
            case .atLeast: return left >= right
            case .atMost: return left <= right
            case .equal: return left == right
            case .greater: return left > right
            case .less: return left < right
            }
        }
    }

    /// The metric path (`enter.recall`).
    public let path: String
    /// How the metric compares with ``threshold``.
    public let comparison: Comparison
    /// The number, in the metric's unit (seconds for latencies).
    public let threshold: Double
    /// The expectation as written.
    public let description: String

    /// Reads an expectation.
    /// - Throws: ``ExpectationError`` naming the text: no comparison, a
    ///   path that is no metric (with the nearest one), or a value that is
    ///   no number.
    public init(parsing text: String) throws(ExpectationError) {
        guard let parts = Comparison.split(text) else { throw .noComparison(text) }
        path = parts.name
        guard EvaluationScores.metricPaths.contains(path) else {
            throw .unknownMetric(path, suggestion: Spelling.likely(path, in: EvaluationScores.metricPaths))
        }
        guard let value = Self.number(parts.value) else { throw .badValue(text) }
        comparison = parts.comparison
        threshold = value
        description = parts.compact
    }

    /// A number with an optional unit: ms, s, m (minutes), min, h, or %.
    private static func number(_ text: String) -> Double? {
        let digits = text.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E" }
        let scales: [String: Double] = ["": 1, "s": 1, "ms": 0.001, "m": 60, "min": 60, "h": 3600, "%": 0.01]
        guard let value = Double(digits), value.isFinite, let scale = scales[String(text.dropFirst(digits.count))] else {
            return nil
        }
        return value * scale
    }

    /// Whether `scores` meet the expectation; an undefined metric does not.
    public func holds(for scores: EvaluationScores) -> Bool {
        guard case .some(.some(let value)) = scores.value(at: path) else { return false }
        return comparison.holds(value, threshold)
    }
}

/// Why an `--expect` cannot be read.
public enum ExpectationError: Error, Equatable, CustomStringConvertible {
    /// No `>=`, `<=`, `==`, `>` or `<`.
    case noComparison(String)
    /// Not a metric path; the one it likely meant, if any.
    case unknownMetric(String, suggestion: String?)
    /// The value is not a number (with an optional unit).
    case badValue(String)

    public var description: String {
        switch self {
        case .noComparison(let text):
            return "--expect '\(text)' has no comparison; write METRIC>=VALUE, e.g. enter.recall>=0.95"
        case .unknownMetric("", _):
            return "--expect: no metric before the comparison; write METRIC>=VALUE, e.g. enter.recall>=0.95"
        case .unknownMetric(let path, let suggestion):
            let meant = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "--expect: '\(path)' is not a metric\(meant) (paths as in the JSON output)"
        case .badValue(let text):
            return "--expect '\(text)': the value must be a number, a duration like 30s or 2m, or a percentage"
        }
    }
}
