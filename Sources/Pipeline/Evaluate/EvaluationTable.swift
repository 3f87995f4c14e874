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

    /// The table's lines.
    public var lines: [String] {
        let names = rows.first?.setting.parameters.map(\.name) ?? []
        let widths = names.map { name in
            max(
                name.count, rows.map { Self.text($0.setting.parameters.first { $0.name == name }?.value) }.map(\.count).max() ?? 0
            )
        }
        let pooled = (rows.first?.runs ?? 1) > 1
        let reminders = rows.first?.scores.reminders != nil
        var header = zip(names, widths).map { $0.padded($1) }
        header += [
            "enter tp/fp/fn".padded(15), "recall".padded(pooled ? 20 : 7), "prec".padded(6), "exit recall".padded(12),
            "prec".padded(6), "f1".padded(6), "p50".padded(7), "p90".padded(7), "false/100h".padded(10),
        ]
        if reminders { header.append("reminders r/p".padded(14)) }
        if !expectations.isEmpty { header.append("ok") }
        var lines = [header.joined(separator: "  ").trimmingTrailingSpaces]
        for row in rows {
            let scores = row.scores
            var cells = zip(names, widths).map { name, width in
                Self.text(row.setting.parameters.first { $0.name == name }?.value).padded(width)
            }
            let enter = scores.enter
            var recall = Self.ratio(enter.recall)
            if pooled {
                let interval = ConfidenceInterval.wilson(
                    successes: enter.truePositives, trials: enter.truePositives + enter.falseNegatives)
                recall += interval.map { " [\(Self.ratio($0.lowerBound)),\(Self.ratio($0.upperBound))]" } ?? ""
            }
            cells += [
                "\(enter.truePositives)/\(enter.falsePositives)/\(enter.falseNegatives)".padded(15),
                recall.padded(pooled ? 20 : 7), Self.ratio(enter.precision).padded(6),
                Self.ratio(scores.exit.recall).padded(12), Self.ratio(scores.exit.precision).padded(6),
                Self.ratio(scores.all.f1).padded(6), Self.seconds(enter.latency.p50).padded(7),
                Self.seconds(enter.latency.p90).padded(7), Self.rate(scores.falseEntriesPer100h).padded(10),
            ]
            if let metrics = scores.reminders {
                cells.append("\(Self.ratio(metrics.recall))/\(Self.ratio(metrics.precision))".padded(14))
            }
            if !expectations.isEmpty { cells.append(expectations.allSatisfy { $0.holds(for: scores) } ? "✓" : "") }
            lines.append(cells.joined(separator: "  ").trimmingTrailingSpaces)
        }
        return lines
    }

    private static func text(_ value: EvaluationSetting.Parameter.Value?) -> String {
        switch value {
        case .number(let number): return number == number.rounded() ? String(Int64(number)) : String(number)
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
