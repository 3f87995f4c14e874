// The verdict card, the charts against each swept parameter, and the
// latency distribution.
extension EvaluationReport {
    /// `0.953`, or `-` when undefined.
    static func ratio(_ value: Double?) -> String { value.map { Format.fixed($0, decimals: 3) } ?? "-" }

    /// The sentence of the verdict: `confirm 2, hysteresis 25 m: recall
    /// 0.95, precision 0.97, 0.4 false entries per 100 h; meets enter.recall>=0.9`.
    public var headline: String {
        var text = verdict.setting + ": recall " + Self.ratio(verdict.recall) + ", precision " + Self.ratio(verdict.precision)
        if let rate = verdict.falseEntriesPer100h {
            text += ", " + Format.number(rate, decimals: rate < 10 ? 1 : 0) + " false entries per 100 h"
        }
        let met = verdict.checks.filter(\.holds).map(\.text), failed = verdict.checks.filter { !$0.holds }.map(\.text)
        if !met.isEmpty { text += "; meets " + met.joined(separator: ", ") }
        if !failed.isEmpty { text += "; fails " + failed.joined(separator: ", ") }
        return text
    }

    var verdictMarkup: Markup {
        let fails = verdict.checks.contains { !$0.holds }
        var html = Markup()
        html.start("div", ["class": fails ? "verdict fails" : "verdict"])
        html.element("p", ["class": "headline"], text: headline)
        html.element(
            "p",
            text: "F1 " + Self.ratio(verdict.f1) + " (entries and exits together); entries alone: recall "
                + Self.ratio(verdict.entryRecall) + ", precision " + Self.ratio(verdict.entryPrecision) + ".")
        if !verdict.checks.isEmpty {
            html.start("p")
            for (index, check) in verdict.checks.enumerated() {
                if index > 0 { html.text(" · ") }
                html.element(
                    "span", ["class": check.holds ? "met" : "failed"],
                    text: (check.holds ? "✓ " : "✗ ") + check.text + " (" + Self.value(check.value) + ")")
            }
            html.end("p")
        }
        html.element("p", text: choice)
        html.end("div")
        html.newline()
        return html
    }

    /// How the setting was chosen, in words.
    private var choice: String {
        let of = String(verdict.settings) + " setting" + (verdict.settings == 1 ? "" : "s")
        if verdict.checks.isEmpty {
            return verdict.settings == 1 ? "One setting was evaluated." : "The best F1 of " + of + " (no --expect given)."
        }
        if verdict.meeting == 0 {
            return "No setting of " + String(verdict.settings) + " meets every expectation; shown: the best F1."
        }
        return String(verdict.meeting) + " of " + of + " meet every expectation; shown: the best F1 among them."
    }

    private static func value(_ value: Double?) -> String {
        guard let value else { return "undefined" }
        return Format.number(value, decimals: abs(value) < 10 ? 3 : 1)
    }

    var sweepMarkup: Markup {
        var html = Markup()
        html.start("div", ["class": "charts"])
        for sweep in sweeps {
            html.start("figure")
            html.element("figcaption", text: sweep.name + (sweep.unit.isEmpty ? "" : " (" + sweep.unit + ")"))
            html.append(chart(sweep).svg(width: 306, height: 220, title: "Precision, recall and F1 against " + sweep.name))
            html.end("figure")
        }
        html.end("div")
        var page = Legend([
            .line(colour: EvaluationStyles.precision, label: "precision"),
            .line(colour: EvaluationStyles.recall, label: "recall"),
            .line(colour: EvaluationStyles.f1, label: "F1"),
            .area(fill: "#F0E442", stroke: "#c9bd1c", label: "the best setting's value"),
        ]).markup
        page.append(html)
        return page
    }

    private func chart(_ sweep: Sweep) -> LineChart {
        let xs = sweep.points.map(\.x)
        let low = xs.min() ?? 0, high = xs.max() ?? 1
        let pad = high > low ? (high - low) * 0.08 : 1
        let values = sweep.points.flatMap { [$0.precision, $0.recall, $0.f1] }.compactMap { $0 }
        let bottom = min(0.5, ((values.min() ?? 0) * 10).rounded(.down) / 10)
        var chart = LineChart(x: (low - pad)...(high + pad), y: bottom...1, xTitle: sweep.name, yTitle: "score")
        var ticks: [(Double, String)] = []
        for point in sweep.points where !ticks.contains(where: { $0.0 == point.x }) { ticks.append((point.x, point.label)) }
        chart.xTicks = ticks.map { (value: $0.0, label: $0.1) }
        let metrics: [(String, String, (SweepPoint) -> Double?)] = [
            ("precision", EvaluationStyles.precision, \.precision), ("recall", EvaluationStyles.recall, \.recall),
            ("F1", EvaluationStyles.f1, \.f1),
        ]
        for (name, colour, metric) in metrics {
            chart.faint += sweep.points.filter { !$0.onLine }.compactMap { point in
                metric(point).map {
                    LineChart.FaintPoint(
                        point: PlanePoint(x: point.x, y: $0), colour: colour,
                        tooltip: name + " " + Self.ratio($0) + " at " + point.setting)
                }
            }
            let line = sweep.points.filter(\.onLine).sorted { $0.x < $1.x }.compactMap { point in
                metric(point).map { PlanePoint(x: point.x, y: $0) }
            }
            chart.series.append(.init(label: name, colour: colour, points: line))
        }
        chart.highlight = sweep.points.first { $0.onLine && $0.setting == verdict.setting }?.x
        return chart
    }

    var latencyMarkup: Markup {
        var html = Markup()
        guard !latencies.isEmpty else {
            html.element("p", text: "No entry was found, so there is no delay to show.")
            return html
        }
        let upper = max(latencies.last ?? 0, 380, min(window.late, 400))
        let lower = min(latencies.first ?? 0, 0)
        var chart = LineChart(
            x: lower...(upper * 1.03), y: 0...1, xTitle: "delay after the true entry (s; negative: early)",
            yTitle: "share of found entries")
        chart.xLabel = { Format.number($0, decimals: 0) }
        var points = [PlanePoint(x: lower, y: 0)]
        for (index, latency) in latencies.enumerated() {
            points.append(PlanePoint(x: latency, y: Double(index + 1) / Double(latencies.count)))
        }
        points.append(PlanePoint(x: upper * 1.03, y: 1))
        chart.series = [.init(label: "found entries", colour: EvaluationStyles.precision, points: points, stepped: true)]
        chart.references = [.init(x: 20, label: "20 s"), .init(x: 120, label: "2 min"), .init(x: 360, label: "6 min")]
        html.append(chart.svg(width: 960, height: 280, title: "Share of entries detected within a delay"))
        let within = [20.0, 120, 360].map { limit in latencies.filter { $0 <= limit }.count }
        html.element(
            "p", ["class": "note"],
            text: String(latencies.count) + " found entries"
                + (missedEntries > 0 ? " (and " + String(missedEntries) + " missed, not on the curve)" : "") + ": "
                + Self.percent(within[0], latencies.count) + " within 20 s, "
                + Self.percent(within[1], latencies.count) + " within 2 min, " + Self.percent(within[2], latencies.count)
                + " within 6 min; median " + Format.duration(Self.median(latencies)) + ".")
        return html
    }

    private static func percent(_ part: Int, _ whole: Int) -> String {
        Format.number(Double(part) / Double(max(whole, 1)) * 100, decimals: 0) + " %"
    }

    private static func median(_ sorted: [Double]) -> Double {
        sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
