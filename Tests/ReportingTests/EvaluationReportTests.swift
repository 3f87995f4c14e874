import GeoCore
import Reporting
import TestSupport
import Testing

/// A small evaluation drawn by hand: two settings of one sweep, a region
/// with a hostile name where an entry was missed and an exit invented,
/// and a quiet one.
@Suite struct EvaluationReportTests {
    static let golden = RepositoryPaths.root + "/Tests/ReportingTests/Goldens/evaluate-small.html"
    static let hostile = "<script>alert(1)</script> & \"friends\""

    /// `seconds` after 2025-03-01T10:00:00Z.
    static func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: 1_740_823_200 + seconds) }

    static var report: EvaluationReport {
        let shop = Coordinate(latitude: 52.5163, longitude: 13.3777)
        let near = Coordinate(latitude: 52.5166, longitude: 13.3781)
        var verdict = EvaluationReport.Verdict(
            setting: "hysteresis 25 m", checks: [.init(text: "enter.recall>=0.9", holds: false, value: 0.5)], meeting: 0,
            settings: 2)
        (verdict.recall, verdict.precision, verdict.f1) = (0.75, 0.6, 0.667)
        (verdict.entryRecall, verdict.entryPrecision) = (0.5, 1)
        verdict.falseEntriesPer100h = 0
        var report = EvaluationReport(
            title: "Evaluation of 2 settings", subtitle: "repeat-sim evaluate walk.csv --sweep hysteresis=0,25",
            verdict: verdict,
            summary: ReportTable(
                columns: ["best", "hysteresis", "f1"], rows: [["", "0", "0.600"], ["★", "25", "0.667"]]),
            start: time(0), end: time(600))
        report.sweeps = [
            .init(
                name: "hysteresis", unit: "m",
                points: [
                    .init(x: 0, label: "0 m", precision: 0.5, recall: 0.75, f1: 0.6, onLine: true, setting: "hysteresis 0 m"),
                    .init(
                        x: 25, label: "25 m", precision: 0.6, recall: 0.75, f1: 0.667, onLine: true,
                        setting: "hysteresis 25 m"),
                ])
        ]
        report.latencies = [-3, 1.5, 40]
        report.missedEntries = 1
        let visit = Timeline.Span(start: time(100), end: time(300), style: EvaluationStyles.visit, tooltip: "true visit")
        report.places = [
            .init(
                label: hostile, detail: "1 missed, 1 false, 1 found", shape: .circle(centre: shop, radius: 40), visits: [visit],
                events: [
                    .init(time: time(100), coordinate: shop, outcome: .missed, entry: true, tooltip: "missed entry: " + hostile),
                    .init(time: time(200), coordinate: near, outcome: .falseAlarm, entry: false, tooltip: "false exit"),
                    .init(time: time(305), coordinate: near, outcome: .found, entry: false, tooltip: "found exit"),
                ],
                strip: [.init(start: time(90), end: time(110), colour: EvaluationStyles.accurateFixes, tooltip: "3 fixes")],
                truth: [[Coordinate(latitude: 52.5158, longitude: 13.3770), shop, near]],
                fixes: [.init(coordinate: near, quality: .accurate), .init(coordinate: shop, quality: .ignored)]),
            .init(
                label: "Park", detail: "0 missed, 0 false, 0 found",
                shape: .polygons([
                    [[shop, near, Coordinate(latitude: 52.5166, longitude: 13.3777), shop]]
                ]), visits: [], events: [], strip: [], truth: [], fixes: []),
        ]
        report.placesLeftOut = "1 more region with events is not shown."
        report.misses = [.init(label: "no fix delivered", advice: "Shorter interval.", entries: 1, exits: 0)]
        report.falseAlarms = [.init(label: "flapping at the edge", advice: "More hysteresis.", entries: 0, exits: 1)]
        report.notes = ["A note about " + hostile]
        return report
    }

    @Test func theSmallReportMatchesItsGolden() throws {
        try Golden.expect(Self.report.html, matches: Self.golden, suite: "EvaluationReportTests")
    }

    @Test func itIsWellFormedXMLWithChartsTimelineAndMaps() throws {
        let names = try XMLWellFormed.elementNames(Self.report.html)
        #expect(names.first == "html")
        #expect(!names.contains("script"))
        // Legends' swatches aside: the sweep chart, the latency chart, the timeline, two maps.
        let html = Self.report.html
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count - 1 == 2)
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == 1)
        #expect(html.components(separatedBy: "<svg class=\"map\"").count - 1 == 2)
    }

    @Test func nothingIsFetched() {
        let html = Self.report.html
        #expect(!html.contains("http:") && !html.contains("https:"))
        #expect(!html.contains("url("))
    }

    @Test func aHostileRegionNameIsShownNotRun() {
        let html = Self.report.html
        #expect(!html.contains("<script"))
        // The timeline row (cut, and whole in its tooltip), the map caption, label and tooltip, the mark, the note.
        #expect(html.components(separatedBy: "&lt;script&gt;alert(1)&lt;/script&gt;").count - 1 >= 5)
    }

    @Test func theVerdictSaysWhatWasChosenAndWhetherItHolds() {
        let report = Self.report
        #expect(
            report.headline
                == "hysteresis 25 m: recall 0.750, precision 0.600, 0 false entries per 100 h; fails enter.recall>=0.9")
        #expect(report.html.contains("No setting of 2 meets every expectation; shown: the best F1."))
        #expect(report.html.contains("✗ enter.recall&gt;=0.9 (0.5)"))
    }

    @Test func theLatencyNoteCountsWithinThePlatformsDelays() {
        #expect(
            Self.report.html.contains(
                "3 found entries (and 1 missed, not on the curve): 67 % within 20 s, 100 % within 2 min, 100 % within 6 min; "
                    + "median 2 s."))
    }

    @Test func ratiosKeepTheirDecimals() {
        #expect(Format.fixed(0.93, decimals: 3) == "0.930")
        #expect(Format.fixed(1, decimals: 3) == "1.000")
        #expect(Format.fixed(0.9996, decimals: 3) == "1.000")
        #expect(Format.fixed(-0.5, decimals: 1) == "-0.5")
    }
}
