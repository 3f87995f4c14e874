import GeoCore
import Reporting
import TestSupport
import Testing

/// A small replay drawn by hand: one device past a pharmacy (a circle)
/// and a park (a polygon), two tasks — one with a hostile title.
@Suite struct ReplayReportTests {
    static let golden = RepositoryPaths.root + "/Tests/ReportingTests/Goldens/replay-small.html"
    static let hostile = "<script>alert(1)</script> & \"friends\""

    static func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    static var report: ReplayReport {
        // 2025-03-01T10:00:00Z
        let t0 = 1_740_823_200.0
        var collector = TrackCollector()
        for step in 0..<30 {
            let point = Coordinate(latitude: 52.515 + Double(step) * 0.0002, longitude: 13.375 + Double(step % 10) * 0.0003)
            collector.add(point, device: "phone", time: t0 + Double(step) * 10)
        }
        let pharmacy = Coordinate(latitude: 52.5163, longitude: 13.3777)
        let park = [
            [52.519, 13.376], [52.519, 13.379], [52.5205, 13.379], [52.5205, 13.376], [52.519, 13.376],
        ].map { Coordinate(latitude: $0[0], longitude: $0[1]) }
        let events = [
            ReplayReport.Event(
                kind: .transition("enter"), time: time(t0 + 60), coordinate: pharmacy, task: nil, text: "enter Pharmacy"),
            ReplayReport.Event(
                kind: .suppressed(reason: "not-due"), time: time(t0 + 60), coordinate: pharmacy, task: "gym",
                text: "suppressed (not-due): " + hostile),
            ReplayReport.Event(
                kind: .locationReminder, time: time(t0 + 60), coordinate: pharmacy, task: "cat", text: "location reminder"),
            ReplayReport.Event(kind: .dueReminder, time: time(t0 + 200), coordinate: nil, task: "gym", text: "due reminder"),
            ReplayReport.Event(
                kind: .transition("exit"), time: time(t0 + 250), coordinate: park[0], task: nil, text: "exit Park"),
        ]
        let tasks = [
            ReplayReport.Task(
                id: "cat", title: "Buy cat medicine", detail: "10w–14w after completion",
                cycles: [
                    .init(anchor: t0 - 86400, windowStart: t0 + 30, due: t0 + 150, completed: time(t0 + 220)),
                    .init(anchor: t0 + 220, windowStart: t0 + 86400, due: t0 + 90000, completed: nil),
                ]),
            ReplayReport.Task(
                id: "gym", title: hostile, detail: "every 2w",
                cycles: [.init(anchor: t0 - 1000, windowStart: t0 + 200, due: t0 + 200, completed: nil)]),
        ]
        return ReplayReport(
            title: "Replay of walk.gpx", subtitle: "repeat-sim replay walk.gpx --tasks tasks.json", start: time(t0),
            end: time(t0 + 290), tracks: collector.result,
            regions: [
                ReportMap.Region(label: "Pharmacy", shape: .circle(centre: pharmacy, radius: 150), tooltip: "Pharmacy"),
                ReportMap.Region(label: hostile, shape: .polygons([[park]]), tooltip: hostile),
            ], events: events, tasks: tasks,
            summary: ReportTable(columns: ["", "count"], rows: [["reminders", "2"], [hostile, "1"]]),
            taskTable: ReportTable(columns: ["task", "title"], rows: [["gym", hostile]]), notes: ["A note about " + hostile])
    }

    @Test func theSmallReportMatchesItsGolden() throws {
        try Golden.expect(Self.report.html, matches: Self.golden, suite: "ReplayReportTests")
    }

    @Test func itIsWellFormedXMLWithMapTimelineAndNoScript() throws {
        let names = try XMLWellFormed.elementNames(Self.report.html)
        #expect(names.first == "html")
        #expect(!names.contains("script"))
        #expect(names.filter { $0 == "svg" }.count >= 3)
        #expect(names.contains("ellipse") && names.contains("table"))
    }

    @Test func nothingIsFetched() {
        let html = Self.report.html
        #expect(!html.contains("http:") && !html.contains("https:"))
        #expect(!html.contains("xmlns"))
        #expect(!html.contains("url("))
    }

    @Test func aHostileTitleIsShownNotRun() {
        let html = Self.report.html
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; \"friends\""))
        // In the summary, the map (label and tooltip), the timeline and the notes.
        #expect(html.components(separatedBy: "&lt;script&gt;alert(1)&lt;/script&gt;").count - 1 >= 6)
    }

    /// A cycle that began in 1500 and is due in 2500 (beyond the years a
    /// timestamp holds) is drawn across the replay, its dates named.
    @Test func aCycleBeyondTheTimestampsYears() throws {
        var report = Self.report
        report.tasks[0].cycles = [
            .init(anchor: -14_831_769_600, windowStart: -14_831_769_600, due: 16_725_225_600, completed: nil)
        ]
        let html = report.html
        #expect(html.contains("cycle from 1500-01-01 00:00, window opens 1500-01-01 00:00, due 2500-01-01 00:00 (UTC)"))
        #expect(try XMLWellFormed.elementNames(html).first == "html")
    }

    /// A 150 m circle is drawn with 150 m on the frame's scale, north and east alike.
    @Test func regionsAreDrawnAtTheirTrueSize() throws {
        let pharmacy = Coordinate(latitude: 52.5163, longitude: 13.3777)
        let map = ReportMap(
            tracks: [
                .init(label: "phone", colour: "#000000", segments: [[pharmacy, Coordinate(latitude: 52.53, longitude: 13.40)]])
            ],
            regions: [.init(label: "Pharmacy", shape: .circle(centre: pharmacy, radius: 150), tooltip: "Pharmacy")], marks: [])
        let svg = map.svg().text
        let frame = map.frame()
        let ellipse = try #require(svg.range(of: "<ellipse ").map { svg[$0.lowerBound...] })
        func attribute(_ name: String) throws -> Double {
            let start = try #require(ellipse.range(of: " \(name)=\"")).upperBound
            return try #require(Double(ellipse[start...].prefix { $0 != "\"" }))
        }
        let (rx, ry, cx, cy) = (try attribute("rx"), try attribute("ry"), try attribute("cx"), try attribute("cy"))
        let radius = 150 * frame.pixelsPerMetre
        #expect(abs(ry - radius) < 0.01)
        #expect(abs(rx - radius) / radius < 0.001)
        let centre = frame.pixel(pharmacy)
        #expect(abs(cx - centre.x) <= 0.05 && abs(cy - centre.y) <= 0.05)
    }
}
