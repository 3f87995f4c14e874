import Evaluation
import GeoCore

/// A condition on one of `bench`'s figures, for CI: `--expect
/// 'fixes_per_s>=1e6'`, `--expect 'index_vs_bruteforce>=50'` — a name as in
/// the JSON, a comparison (`>=`, `<=`, `==`, `>`, `<`) and a number.
public struct BenchExpectation: Sendable, CustomStringConvertible {
    /// The figure's name.
    public let name: String
    /// How the figure compares with ``threshold``.
    public let comparison: Expectation.Comparison
    /// The number.
    public let threshold: Double
    /// The expectation as written, without spaces.
    public let description: String

    /// Reads `text`, whose name must be one of `names`.
    /// - Throws: ``BenchExpectationError``: no comparison, a name that is no
    ///   figure (with the nearest one), or a value that is no number.
    public init(parsing text: String, names: [String]) throws(BenchExpectationError) {
        guard let parts = Expectation.Comparison.split(text) else { throw .noComparison(text) }
        name = parts.name
        guard names.contains(name) else { throw .unknownMetric(name, suggestion: Spelling.likely(name, in: names)) }
        guard let value = Double(parts.value), value.isFinite else { throw .badValue(text) }
        comparison = parts.comparison
        threshold = value
        description = parts.compact
    }

    /// The figure's value among `metrics` (`nil` when not measured).
    public func value(in metrics: [BenchMetric]) -> Double? {
        metrics.first { $0.name == name }?.value
    }

    /// Whether `metrics` meet the expectation; a figure not measured does not.
    public func holds(in metrics: [BenchMetric]) -> Bool {
        value(in: metrics).map { comparison.holds($0, threshold) } ?? false
    }
}

/// Why an `--expect` of `bench` cannot be read.
public enum BenchExpectationError: Error, Equatable, CustomStringConvertible {
    /// No `>=`, `<=`, `==`, `>` or `<`.
    case noComparison(String)
    /// Not a figure's name; the one it likely meant, if any.
    case unknownMetric(String, suggestion: String?)
    /// The value is not a number.
    case badValue(String)

    public var description: String {
        switch self {
        case .noComparison(let text):
            return "--expect '\(text)' has no comparison; write NAME>=VALUE, e.g. index_vs_bruteforce>=50"
        case .unknownMetric("", _):
            return "--expect: no figure before the comparison; write NAME>=VALUE, e.g. index_vs_bruteforce>=50"
        case .unknownMetric(let name, let suggestion):
            let meant = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "--expect: '\(name)' is not a bench figure\(meant) (names as in the JSON output)"
        case .badValue(let text):
            return "--expect '\(text)': the value must be a number, like 1e6 or 0.5"
        }
    }
}
