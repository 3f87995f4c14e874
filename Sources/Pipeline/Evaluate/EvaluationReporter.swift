import Evaluation
import GeoCore
import Reporting

/// `evaluate --report FILE.html`: the report of an evaluation's rows
/// (``EvaluationReport``), with the detail of the best setting from one
/// more detection run over one feed (with `--runs`, run 1's; the numbers
/// stay pooled).
///
/// The best setting: among the rows that meet every expectation, the
/// best F1 of entries and exits together; without such rows, the best F1
/// of all (ties: the first row).
public struct EvaluationReporter: Sendable {
    /// The evaluation the rows come from.
    public let evaluation: FeedEvaluation
    /// The matching window.
    public let window: MatchWindow
    /// The expectations (`--expect`).
    public let expectations: [Expectation]
    /// The line under the title (what was run).
    public let subtitle: String

    /// At most this many regions get a timeline row.
    static let placeLimit = 20
    /// The first this many of them get a small map.
    static let mapLimit = 6

    /// A reporter.
    public init(evaluation: FeedEvaluation, window: MatchWindow, expectations: [Expectation], subtitle: String) {
        self.evaluation = evaluation
        self.window = window
        self.expectations = expectations
        self.subtitle = subtitle
    }

    /// The index of the best row of `rows` (see the type's summary).
    public static func best(of rows: [EvaluationRunner.Row], expectations: [Expectation]) -> Int? {
        let meeting = rows.indices.filter { index in expectations.allSatisfy { $0.holds(for: rows[index].scores) } }
        let candidates = meeting.isEmpty ? Array(rows.indices) : meeting
        return candidates.max { a, b in
            let (fa, fb) = (rows[a].scores.all.f1 ?? -1, rows[b].scores.all.f1 ?? -1)
            return fa < fb || (fa == fb && a > b)
        }
    }

    /// What the best of `rows` needs of the feed for its detail: `truth`
    /// is the feed's, `detections` what each row's setting detected on it
    /// (in the rows' order), `span` its first and last fix time. The
    /// feed and truth are then read into the plan's ``ReportPlan/gatherers()``.
    public func plan(
        rows: [EvaluationRunner.Row], truth: FeedEvaluation.Truth, detections: [FeedEvaluation.Detection],
        span: (start: Timestamp, end: Timestamp)
    ) -> ReportPlan {
        precondition(detections.count == rows.count, "one detection per row")
        let best = Self.best(of: rows, expectations: expectations) ?? 0
        return ReportPlan(
            evaluation: evaluation, truth: truth, detected: detections[best].events, setting: rows[best].setting,
            window: window, span: span)
    }

    /// The page for `rows`, the best setting's detail from what its `plan`
    /// gathered; `runs` feeds were pooled into the rows.
    public func html(
        rows: [EvaluationRunner.Row], plan: ReportPlan, fixes: FixEvidence, truth: TruthEvidence, runs: Int
    ) -> String {
        report(rows: rows, detail: plan.detail(fixes: fixes, truth: truth), runs: runs).html
    }

    /// The report's facts.
    func report(rows: [EvaluationRunner.Row], detail: EvaluationDetail, runs: Int) -> EvaluationReport {
        let bestIndex = Self.best(of: rows, expectations: expectations) ?? 0
        let best = rows[bestIndex]
        let table = EvaluationTable(rows: rows, expectations: expectations)
        var summary = ReportTable(columns: ["best"] + table.header, rows: [])
        for (index, cells) in table.cells.enumerated() { summary.rows.append([index == bestIndex ? "★" : ""] + cells) }
        let meeting = rows.filter { row in expectations.allSatisfy { $0.holds(for: row.scores) } }.count
        var verdict = EvaluationReport.Verdict(
            setting: Self.words(best.setting),
            checks: expectations.map { expectation in
                .init(
                    text: expectation.description, holds: expectation.holds(for: best.scores),
                    value: best.scores.value(at: expectation.path).flatMap { $0 })
            }, meeting: meeting, settings: rows.count)
        let scores = best.scores
        (verdict.recall, verdict.precision, verdict.f1) = (scores.all.recall, scores.all.precision, scores.all.f1)
        (verdict.entryRecall, verdict.entryPrecision) = (scores.enter.recall, scores.enter.precision)
        verdict.falseEntriesPer100h = scores.falseEntriesPer100h
        let span = detail.span
        var report = EvaluationReport(
            title: "Evaluation of " + (rows.count == 1 ? "one setting" : String(rows.count) + " settings"), subtitle: subtitle,
            verdict: verdict, summary: summary, start: span.start, end: span.end)
        report.sweeps = sweeps(rows, best: best)
        report.latencies = detail.entryLatencies
        report.missedEntries =
            detail.events.filter {
                guard case .missed = $0.outcome else { return false }
                return $0.event.kind == .enter
            }.count
        report.window = (window.early, window.late)
        let places = PlaceDrawing(detail: detail).places(limit: Self.placeLimit)
        report.places = places.drawn
        report.maps = Self.mapLimit
        if places.leftOut > 0 {
            report.placesLeftOut =
                String(places.leftOut) + " more regions with events are not shown (at most "
                + String(Self.placeLimit) + ", those with the most misses and false detections first)."
        }
        (report.misses, report.falseAlarms) = Self.causes(detail.events)
        if runs > 1 {
            report.notes.append(
                "The numbers pool all " + String(runs) + " runs; the latencies, timelines, maps and causes show run 1.")
        }
        report.notes.append(
            "The detail is of the best setting only, scored on every fix; the maps show the truth and the fixes near each "
                + "region, thinned for drawing.")
        return report
    }

    /// The first and last time of `fixes`.
    public static func span(_ fixes: some Sequence<Fix>) -> (start: Timestamp, end: Timestamp) {
        var span = FeedSpan()
        for fix in fixes { span.add(fix) }
        return span.value
    }

    /// A setting in words: `confirm 2, hysteresis 25 m`.
    static func words(_ setting: EvaluationSetting) -> String {
        guard !setting.parameters.isEmpty else { return "The setting given" }
        return setting.parameters.map { $0.name + " " + value($0) }.joined(separator: ", ")
    }

    /// A parameter's value with its unit.
    static func value(_ parameter: EvaluationSetting.Parameter) -> String {
        switch parameter.value {
        case .word(let word): return word
        case .number(let number):
            return Format.number(number, decimals: 2) + (unit(of: parameter.name).isEmpty ? "" : " " + unit(of: parameter.name))
        }
    }

    /// The unit of a swept parameter.
    static func unit(of name: String) -> String {
        switch name {
        case "hysteresis", "pad", "max-accuracy": return "m"
        case "interval", "dwell": return "s"
        default: return ""
        }
    }
}
