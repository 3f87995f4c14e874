import Evaluation
import Foundation

/// The rows of an evaluation as a table for people: one line per
/// setting, the swept parameters first, then entries, exits, latency and
/// false entries; rows that meet every expectation marked `✓`.
public struct EvaluationTable {
    /// The rows.
    public let rows: [EvaluationRunner.Row]
    /// The expectations (`--expect`); none marks no row.
    public let expectations: [Expectation]

    /// A table of `rows`.
    public init(rows: [EvaluationRunner.Row], expectations: [Expectation]) {
        self.rows = rows
        self.expectations = expectations
    }

    /// The swept names, in the order of the sweeps.
    private var names: [String] { rows.first?.setting.parameters.map(\.name) ?? [] }
    private var pooled: Bool { (rows.first?.runs ?? 1) > 1 }
    private var reminders: Bool { rows.first?.scores.reminders != nil }

    /// The column headings.
    public var header: [String] {
        var header = names
        header += ["enter tp/fp/fn", "recall", "prec", "exit recall", "prec", "f1", "p50", "p90", "false/100h"]
        if reminders { header.append("reminders r/p") }
        if !expectations.isEmpty { header.append("ok") }
        return header
    }

    /// The cells of each row, as ``header`` names them.
    public var cells: [[String]] {
        rows.map { row in
            let scores = row.scores
            var cells = names.map { name in Self.text(row.setting.parameters.first { $0.name == name }?.value) }
            let enter = scores.enter
            var recall = Self.ratio(enter.recall)
            if pooled {
                let interval = ConfidenceInterval.wilson(
                    successes: enter.truePositives, trials: enter.truePositives + enter.falseNegatives)
                recall += interval.map { " [\(Self.ratio($0.lowerBound)),\(Self.ratio($0.upperBound))]" } ?? ""
            }
            cells += [
                "\(enter.truePositives)/\(enter.falsePositives)/\(enter.falseNegatives)", recall, Self.ratio(enter.precision),
                Self.ratio(scores.exit.recall), Self.ratio(scores.exit.precision), Self.ratio(scores.all.f1),
                Self.seconds(enter.latency.p50), Self.seconds(enter.latency.p90), Self.rate(scores.falseEntriesPer100h),
            ]
            if let metrics = scores.reminders {
                cells.append("\(Self.ratio(metrics.recall))/\(Self.ratio(metrics.precision))")
            }
            if !expectations.isEmpty { cells.append(expectations.allSatisfy { $0.holds(for: scores) } ? "✓" : "") }
            return cells
        }
    }

    /// The table's lines: ``header`` and ``cells`` in padded columns.
    public var lines: [String] {
        let cells = cells
        var widths = names.indices.map { column in max(names[column].count, cells.map { $0[column].count }.max() ?? 0) }
        widths += [15, pooled ? 20 : 7, 6, 12, 6, 6, 7, 7, 10]
        if reminders { widths.append(14) }
        if !expectations.isEmpty { widths.append(2) }
        return ([header] + cells).map { line in
            zip(line, widths).map { $0.padded($1) }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }

    /// A number as the table and evaluate's messages write it: whole
    /// numbers without ".0" up to 2^53 (`66`), others as Swift writes them
    /// (`0.971`, `1e+300`).
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 0x1p53 ? String(Int64(value)) : String(value)
    }

    private static func text(_ value: EvaluationSetting.Parameter.Value?) -> String {
        switch value {
        case .number(let value): return number(value)
        case .word(let word): return word
        case nil: return "-"
        }
    }

    private static func ratio(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }

    private static func rate(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }

    /// Seconds, as `12.3s` or `4m05s`.
    private static func seconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        if abs(value) < 100 { return String(format: "%.1fs", value) }
        let whole = Int(value.rounded())
        return "\(whole / 60)m\(String(format: "%02d", abs(whole % 60)))s"
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
