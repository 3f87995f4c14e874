import Foundation
import GeoCore
import Geofencing
import Pipeline
import TestSupport
import Testing

/// `--report`'s sink: bounded, and what it draws is spread over the run.
@Suite struct ReportSinkTests {
    @Test func manyEventsAreSampledEvenlyAndCountedExactly() throws {
        let path = temporaryDirectory("repeat-report-sink") + "/report.html"
        let region = Region(
            id: "Pharmacy", shape: .circle(centre: Coordinate(latitude: 45.2788, longitude: 13.7224), radius: 150))
        let sink = try ReportSink(
            path: path, inputs: .init(feeds: ["walk.csv"], tasksFile: nil, regionsFile: nil), regions: [region], tasks: [])
        // 2025-03-01T00:00:00Z, one fix and one entry a minute for 4000 minutes.
        let start = 1_740_787_200.0
        for minute in 0..<4000 {
            let time = Timestamp(secondsSince1970: start + Double(minute) * 60)
            let fix = try #require(
                TimedFix(Fix(time: time, coordinate: Coordinate(latitude: 45.2788, longitude: 13.7224), device: "phone")))
            sink.receive(.fix(fix))
            sink.receive(
                .transition(Transition(kind: .enter, time: time, regionKey: 0, region: "Pharmacy", device: "phone", distance: 1)))
        }
        sink.finish()
        let html = try String(contentsOfFile: path, encoding: .utf8)
        let drawn = html.components(separatedBy: "<title>enter Pharmacy").count - 1
        #expect((750...1500).contains(drawn))
        #expect(html.contains("<td>geofence transitions</td><td class=\"num\">4000</td>"))
        #expect(html.contains("\(drawn) of 4000 enter events"))
        // The last kept entry is from the run's last day (2025-03-03T18:39Z is the last minute).
        #expect(html.contains("<title>enter Pharmacy — 2025-03-03 "))
        #expect(html.contains("<title>enter Pharmacy — 2025-03-01 00:00:00 UTC"))
    }
}
