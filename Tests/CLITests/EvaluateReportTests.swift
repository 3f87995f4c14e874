import Foundation
import TestSupport
import Testing

/// `repeat-sim evaluate … --report FILE.html`: a small generated scenario
/// as a golden page (well-formed, self-contained, a hostile region name
/// escaped), and the README's scenario shown by a real browser.
@Suite struct EvaluateReportTests {
    static let golden = RepositoryPaths.root + "/Tests/CLITests/Snapshots/evaluate-report.html"

    /// The Višnjan drive with urban noise, one fix every 5 s, past three
    /// places — one named like an attack.
    func smallReport(in folder: String) throws -> (path: String, html: String, result: CommandResult) {
        let places = [
            "id,lat,lon,radius", "Bakery,45.273142,13.714133,40",
            #""<script>alert(1)</script> & ""Pharmacy""",45.272795,13.712455,60"#, "Bank,45.280091,13.721718,80",
        ]
        try (places.joined(separator: "\n") + "\n").write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        try """
        {"route": "\(RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"))", "keep-times": true,
         "environment": "urban", "interval": "5s", "regions": "places.csv"}
        """.write(toFile: folder + "/small.json", atomically: true, encoding: .utf8)
        let path = folder + "/small.html"
        let result = try RepeatSimBinary.run([
            "evaluate", "--scenario", folder + "/small.json", "--sweep", "hysteresis=0,25", "--sweep", "confirm=1,2",
            "--expect", "enter.precision>=0.95", "--report", path,
        ])
        return (path, try String(contentsOfFile: path, encoding: .utf8), result)
    }

    @Test func theSmallReportMatchesItsGoldenAndEscapesTheRegionName() throws {
        let (_, html, result) = try smallReport(in: temporaryDirectory("repeat-evaluate-report"))
        #expect(result.status == 0, "\(result.stderr)")
        try Golden.expect(html, matches: Self.golden, suite: "EvaluateReportTests")
        let names = try XMLWellFormed.elementNames(html)
        #expect(!names.contains("script"))
        #expect(!html.contains("<script") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;"))
        #expect(!html.contains("http:") && !html.contains("https:"))
        // The verdict names the best setting among those meeting the expectation.
        #expect(html.contains("<p class=\"headline\">hysteresis 0 m, confirm 1: recall 0.778, precision 1.000"))
        #expect(html.contains("meets enter.precision&gt;=0.95"))
    }

    @Test func aReportThatCannotBeWrittenStopsBeforeTheEvaluation() throws {
        let result = try RepeatSimBinary.run([
            "evaluate", "--scenario", RepositoryPaths.track("evaluate/scenario.json"), "--report", "/nonexistent-folder/r.html",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "--report: cannot create \"/nonexistent-folder/r.html\": the folder /nonexistent-folder does not exist"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// The README's scenario in a real browser: parsed, no console
    /// message, and a screenshot to look at.
    @Test(.enabled(if: HeadlessBrowser.path != nil, "no chromium-headless-shell: run Scripts/setup.sh"))
    func aRealBrowserShowsTheReportWithoutErrors() throws {
        let folder = temporaryDirectory("repeat-evaluate-report")
        let path = folder + "/evaluate.html"
        let result = try RepeatSimBinary.run([
            "evaluate", "--scenario", RepositoryPaths.track("evaluate/scenario.json"), "--runs", "3", "--sweep",
            "interval=1s,10s", "--sweep", "hysteresis=0,25", "--sweep", "confirm=1,2", "--expect", "enter.recall>=0.9",
            "--report", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let screenshot = folder + "/evaluate.png"
        let rendering = try HeadlessBrowser.render(page: path, screenshot: screenshot, width: 1100, height: 2400)
        #expect(rendering.consoleMessages.isEmpty, "\(rendering.consoleMessages)")
        #expect(rendering.dom.contains("<h1>Evaluation of 8 settings</h1>"))
        #expect(rendering.dom.contains("<svg class=\"chart\"") && rendering.dom.contains("<svg class=\"timeline\""))
        #expect(rendering.dom.contains("<svg class=\"map\""))
        let png = try #require(FileManager.default.contents(atPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
        print("EvaluateReportTests: screenshot of the evaluate report at \(screenshot)")
    }
}
