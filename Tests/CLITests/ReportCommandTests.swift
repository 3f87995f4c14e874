import Foundation
import TestSupport
import Testing

/// `repeat-sim replay … --report FILE.html`: the README's example as a
/// golden page, well-formed, self-contained, escaped, and shown by a real
/// browser without errors.
@Suite struct ReportCommandTests {
    static let golden = RepositoryPaths.track("cat-medicine/drives.report.html")

    /// Replays the cat-medicine drives with `--report` and returns the page.
    func catMedicineReport(in folder: String) throws -> (path: String, html: String) {
        let path = folder + "/cat-medicine.html"
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--report", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func theCatMedicineReportMatchesItsGolden() throws {
        let (_, html) = try catMedicineReport(in: temporaryDirectory("repeat-report"))
        try Golden.expect(html, matches: Self.golden, suite: "ReportCommandTests")
        let names = try XMLWellFormed.elementNames(html)
        #expect(names.filter { $0 == "svg" }.count >= 3)
        #expect(!names.contains("script"))
        #expect(!html.contains("http:") && !html.contains("https:"))
        // One location reminder on the map, with its label; two due reminders on the timeline.
        #expect(html.contains("2020-12-18 06:18 reminded: Buy cat medicine"))
        #expect(html.components(separatedBy: "<title>due reminder: ").count - 1 == 2)
    }

    @Test func titlesAndPlaceNamesFromFilesAreShownNotRun() throws {
        let folder = temporaryDirectory("repeat-report")
        let tasks = folder + "/tasks.json"
        try """
        {"tasks": [{"id": "x", "title": "<script>alert(1)</script>", "start": "2025-03-01T09:00:00Z",
          "schedule": {"fixed": {"every": "1d"}},
          "locations": [{"name": "<img src=x onerror=alert(2)>", "lat": 52.52, "lon": 13.40, "radius": 100}]}]}
        """.write(toFile: tasks, atomically: true, encoding: .utf8)
        let feed = folder + "/walk.csv"
        try "time,lat,lon\n2025-03-02T10:00:00Z,52.5190,13.40\n2025-03-02T10:01:00Z,52.5200,13.40\n".write(
            toFile: feed, atomically: true, encoding: .utf8)
        let report = folder + "/report.html"
        let result = try RepeatSimBinary.run(["replay", feed, "--tasks", tasks, "--report", report])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
        let names = try XMLWellFormed.elementNames(html)
        #expect(!names.contains("script") && !names.contains("img"))
    }

    @Test func manyDevicesAreListedInTheirNumbersOrderAndSaidToBeMore() throws {
        let folder = temporaryDirectory("repeat-report-devices")
        let feed = folder + "/fleet.csv"
        let rows = (1...12).map { "2025-03-02T10:00:\(String(format: "%02d", $0))Z,52.52,13.40,dev\($0)\n" }
        try ("time,lat,lon,device\n" + rows.joined()).write(toFile: feed, atomically: true, encoding: .utf8)
        try "id,lat,lon,radius\nshop,52.52,13.40,100\n".write(toFile: folder + "/shop.csv", atomically: true, encoding: .utf8)
        let report = folder + "/report.html"
        let result = try RepeatSimBinary.run(["replay", feed, "--regions", folder + "/shop.csv", "--report", report])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains(">dev1, dev2, dev3, dev4, dev5, dev6, dev7, dev8, …<"), "\(html.prefix(3000))")
    }

    /// Tasks whose dates lie beyond the years 1678–2262 (a window that
    /// closes in 2520, a start in the year 1000 or in 2300, which has no
    /// cycle yet): the replay, its report and its JSON name them, where
    /// the report trapped.
    @Test func tasksOfAnyYearAreReportedAndNamed() throws {
        let folder = temporaryDirectory("repeat-report")
        let tasks = folder + "/tasks.json"
        try """
        {"tasks": [{"id": "slow", "title": "Slow", "start": "2020-01-01T00:00:00Z",
          "schedule": {"afterCompletion": {"min": "1d", "max": "500y"}},
          "locations": [{"name": "Pharmacy", "lat": 45.27884, "lon": 13.72245, "radius": 150}]},
         {"id": "old", "title": "Old", "start": "1000-01-01T00:00:00Z", "schedule": {"weekdays": {"days": ["mon"], "at": "09:00"}}},
         {"id": "late", "title": "Late", "start": "2300-01-01T00:00:00+02:00", "schedule": {"fixed": {"every": "1d"}}}]}
        """.write(toFile: tasks, atomically: true, encoding: .utf8)
        let report = folder + "/report.html"
        let drives = RepositoryPaths.track("cat-medicine/drives.gpx")
        let result = try RepeatSimBinary.run(["replay", drives, "--tasks", tasks, "--report", report])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("window opened 2020-01-02 00:00, due 2520-01-01 00:00 UTC"))
        #expect(html.contains("window opens 1000-01-06 09:00"))
        let json = try RepeatSimBinary.run(["replay", drives, "--tasks", tasks, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.stdout.contains(
                #""task":"slow","title":"Slow","region":"Pharmacy","distance_m":123.23,"due":"2520-01-01T00:00:00Z""#))
        #expect(
            json.stdout.contains(
                #""task":"old","title":"Old","due":"1000-01-06T09:00:00Z","window_start":"1000-01-06T09:00:00Z"}"#))
        #expect(!json.stdout.contains(#""task":"late""#))
    }

    @Test func aReportThatCannotBeWrittenStopsBeforeTheReplay() throws {
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--report", "/nonexistent-folder/r.html",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("cannot create \"/nonexistent-folder/r.html\": the folder /nonexistent-folder does not exist"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // A folder where the file would be is named as one.
        let folder = temporaryDirectory("report-folder")
        let onFolder = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--report", folder,
        ])
        #expect(onFolder.status == 1)
        #expect(onFolder.stderr.contains("cannot create \"\(folder)\": it is a folder"), "\(onFolder.stderr)")
    }

    /// The page in a real browser: parsed (the DOM has the map and the
    /// timeline), no console message (no error, nothing failed to load),
    /// and a screenshot to look at.
    @Test(.enabled(if: HeadlessBrowser.path != nil, "no chromium-headless-shell: run Scripts/setup.sh"))
    func aRealBrowserShowsTheReportWithoutErrors() throws {
        let folder = temporaryDirectory("repeat-report")
        let (path, _) = try catMedicineReport(in: folder)
        let screenshot = folder + "/cat-medicine.png"
        let rendering = try HeadlessBrowser.render(page: path, screenshot: screenshot)
        #expect(rendering.consoleMessages.isEmpty, "\(rendering.consoleMessages)")
        #expect(rendering.dom.contains("<h1>Replay of drives.gpx</h1>"))
        #expect(rendering.dom.contains("<svg class=\"map\"") && rendering.dom.contains("<svg class=\"timeline\""))
        let png = try #require(FileManager.default.contents(atPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
        print("ReportCommandTests: screenshot of the cat-medicine report at \(screenshot)")
    }

    /// The console check sees what it is there for: a page with a script
    /// error does not pass.
    @Test(.enabled(if: HeadlessBrowser.path != nil, "no chromium-headless-shell: run Scripts/setup.sh"))
    func theBrowserCheckSeesConsoleErrors() throws {
        let folder = temporaryDirectory("repeat-report")
        let page = folder + "/broken.html"
        try "<!DOCTYPE html><html><body><script>undefinedFunction()</script></body></html>".write(
            toFile: page, atomically: true, encoding: .utf8)
        let rendering = try HeadlessBrowser.render(page: page, screenshot: folder + "/broken.png", width: 200, height: 100)
        #expect(rendering.consoleMessages.contains { $0.contains("undefinedFunction is not defined") })
    }
}
