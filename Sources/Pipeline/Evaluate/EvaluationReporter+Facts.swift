import Evaluation
import Reporting

// The report's charts against each swept parameter and its counts by cause.
extension EvaluationReporter {
    /// One chart per swept name: every row's scores at its value, those
    /// whose other parameters equal the best row's on the lines.
    func sweeps(_ rows: [EvaluationRunner.Row], best: EvaluationRunner.Row) -> [EvaluationReport.Sweep] {
        let names = best.setting.parameters.map(\.name)
        return names.map { name in
            var words: [String] = []
            let points = rows.compactMap { row -> EvaluationReport.SweepPoint? in
                guard let parameter = row.setting.parameters.first(where: { $0.name == name }) else { return nil }
                let x: Double
                switch parameter.value {
                case .number(let number): x = number
                case .word(let word):
                    if !words.contains(word) { words.append(word) }
                    x = Double(words.firstIndex(of: word)!)
                }
                let others = row.setting.parameters.filter { $0.name != name }
                let onLine = others == best.setting.parameters.filter { $0.name != name }
                let all = row.scores.all
                return .init(
                    x: x, label: Self.value(parameter).replacingOccurrences(of: " ", with: "\u{A0}"),
                    precision: all.precision, recall: all.recall, f1: all.f1, onLine: onLine,
                    setting: Self.words(row.setting))
            }
            // A sweep of numbers and words together (hysteresis 0, auto) puts the words after the numbers.
            let numbers = points.filter { point in words.allSatisfy { point.label != $0 } }
            let top = numbers.map(\.x).max() ?? -1
            let placed = points.map { point -> EvaluationReport.SweepPoint in
                guard let word = words.firstIndex(of: point.label), !numbers.isEmpty else { return point }
                var moved = point
                moved.x = top + Double(word + 1) * max(top / 4, 1)
                return moved
            }
            return EvaluationReport.Sweep(name: name, unit: Self.unit(of: name), points: placed)
        }
    }

    /// Misses and false detections counted by cause and kind, in the
    /// causes' order, those that came only.
    static func causes(
        _ events: [EvaluationDetail.Event]
    ) -> (misses: [EvaluationReport.Cause], falseAlarms: [EvaluationReport.Cause]) {
        var missed: [MissCause: (Int, Int)] = [:]
        var invented: [FalseAlarmCause: (Int, Int)] = [:]
        for event in events {
            let entry = event.event.kind == .enter
            switch event.outcome {
            case .found: break
            case .missed(let cause):
                let (entries, exits) = missed[cause] ?? (0, 0)
                missed[cause] = entry ? (entries + 1, exits) : (entries, exits + 1)
            case .falseAlarm(let cause):
                let (entries, exits) = invented[cause] ?? (0, 0)
                invented[cause] = entry ? (entries + 1, exits) : (entries, exits + 1)
            }
        }
        let misses = MissCause.allCases.compactMap { cause in
            missed[cause].map { EvaluationReport.Cause(label: cause.label, advice: cause.advice, entries: $0.0, exits: $0.1) }
        }
        let falseAlarms = FalseAlarmCause.allCases.compactMap { cause in
            invented[cause].map { EvaluationReport.Cause(label: cause.label, advice: cause.advice, entries: $0.0, exits: $0.1) }
        }
        return (misses, falseAlarms)
    }
}
