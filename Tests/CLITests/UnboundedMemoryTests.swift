import Foundation
import GeoCore
import TestSupport
import Testing

/// Issue 16, "Unbounded memory or time": many devices, tasks and regions
/// through the built binary. Memory is compared between a large and a
/// small run of the same command (the peak resident set the kernel
/// reports for each), never against the clock.
@Suite struct UnboundedMemoryTests {
    let folder = temporaryDirectory("repeat-unbounded")

    /// A file in the test's folder holding `text`.
    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Shops of 60–150 m in a 3 km square around 52.52 N 13.40 E.
    func regions(_ count: Int) throws -> String {
        var random = SeededRandom(seed: 5)
        var text = "id,lat,lon,radius\n"
        for index in 0..<count {
            let lat = 52.52 + random.uniform(-0.0135, 0.0135)
            let lon = 13.40 + random.uniform(-0.022, 0.022)
            text += "shop-\(index),\(lat),\(lon),\(Int(random.uniform(60, 150)))\n"
        }
        return try file("regions-\(count).csv", text)
    }

    /// `devices` devices walking in the same square, `fixes` fixes each,
    /// 10 s apart; device i starts `stagger` × i seconds after the first.
    func devices(_ devices: Int, fixes: Int, stagger: Double = 0) throws -> String {
        var random = SeededRandom(seed: 6)
        var rows: [(time: Double, line: String)] = []
        rows.reserveCapacity(devices * fixes)
        for device in 0..<devices {
            var lat = 52.52 + random.uniform(-0.0135, 0.0135)
            var lon = 13.40 + random.uniform(-0.022, 0.022)
            for step in 0..<fixes {
                let time = 1_740_823_200 + Double(device) * stagger + Double(step) * 10
                lat += random.uniform(-0.0002, 0.0002)
                lon += random.uniform(-0.0003, 0.0003)
                rows.append((time, "\(time),\(lat),\(lon),device-\(device)"))
            }
        }
        rows.sort { $0.time < $1.time }
        return try file(
            "devices-\(devices)-\(fixes)-\(stagger).csv", "time,lat,lon,device\n" + rows.map(\.line).joined(separator: "\n"))
    }

    /// `count` tasks of every schedule kind, started in the two weeks before
    /// 2025-03-01, with up to three completions each.
    func tasks(_ count: Int) throws -> String {
        var random = SeededRandom(seed: 7)
        let schedules = [
            #"{"afterCompletion": {"min": "1d", "max": "3d"}}"#, #"{"fixed": {"every": "2d"}}"#,
            #"{"weekdays": {"days": ["mon", "thu"], "at": "18:30"}}"#, #"{"once": {"due": "2025-03-02T09:00:00Z"}}"#,
        ]
        let start = 1_740_787_200.0 - 14 * 86_400
        func time(_ seconds: Double) -> String { RFC3339.format(Timestamp(secondsSince1970: seconds.rounded())) }
        var entries: [String] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let begin = start + random.uniform(0, 13 * 86_400)
            let completions = (0..<Int(random.uniform(0, 4))).map { step in
                "\"" + time(begin + Double(step + 1) * random.uniform(3600, 86_400)) + "\""
            }
            entries.append(
                #"{"id": "task-\#(index)", "title": "Errand \#(index)", "timeZone": "Europe/Berlin", "#
                    + #""start": "\#(time(begin))", "schedule": \#(schedules[index % 4]), "lead": "6h", "#
                    + #""completions": [\#(completions.joined(separator: ", "))]}"#)
        }
        return try file("tasks-\(count).json", "{\"tasks\": [\n" + entries.joined(separator: ",\n") + "\n]}\n")
    }

    /// The summary line without its time and rate.
    func summary(_ stderr: String) -> String {
        let line = stderr.split(separator: "\n").first { $0.hasPrefix("replay: ") }.map(String.init) ?? ""
        return line.split(separator: ";").dropLast().joined(separator: ";")
    }

    @Test("--device-idle sets devices aside without changing a line of the output")
    func deviceIdleChangesNoOutput() throws {
        let feed = try devices(3_000, fixes: 6, stagger: 2)
        let shops = try regions(300)
        let command = ["replay", feed, "--regions", shops, "--transitions", "--json", "--reorder-window", "15s"]
        let kept = try RepeatSimBinary.run(command + ["--device-idle", "100w"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(summary(kept.stderr).hasPrefix("replay: 18000 fixes evaluated from 3000 devices"), "\(kept.stderr)")
        #expect(kept.lines.count > 1_000)
        for idle in ["1h", "1m", "1s"] {
            let run = try RepeatSimBinary.run(command + ["--device-idle", idle])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == kept.stdout, "--device-idle \(idle)")
            #expect(summary(run.stderr) == summary(kept.stderr), "--device-idle \(idle)")
        }
    }

    @Test("--device-idle takes a fixed, positive duration")
    func deviceIdleValues() throws {
        let feed = try devices(2, fixes: 2)
        let shops = try regions(2)
        for (value, message) in [
            ("1mo", "--device-idle '1mo' must be a fixed duration"), ("0", "--device-idle must be a positive duration"),
            ("soon", "'soon' is not a duration"),
        ] {
            let run = try RepeatSimBinary.run(["replay", feed, "--regions", shops, "--device-idle", value])
            #expect(run.status == 1, "\(value): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(value): \(run.stderr)")
        }
    }

    /// `count` circles of 50–500 m spread over 800 km around 52.5 N 13.4 E
    /// (the country workload of ../shared/bench), ids `r<i>`.
    func countryRegions(_ count: Int) throws -> String {
        var random = SeededRandom(seed: 8)
        var text = "id,lat,lon,radius_m\n"
        for index in 0..<count {
            let lat = 52.52 + random.uniform(-3.6, 3.6)
            let lon = 13.40 + random.uniform(-5.9, 5.9)
            text += "r\(index),\(lat),\(lon),\(Int(random.uniform(50, 500)))\n"
        }
        return try file("country-\(count).csv", text)
    }

    @Test("a region costs about 150 bytes beside the runtime, index included, and loads without a copy of the file")
    func perRegionMemory() throws {
        let feed = try devices(1, fixes: 200)
        func run(_ count: Int) throws -> MeasuredRun {
            let run = try RepeatSimBinary.runMeasured(
                ["replay", feed, "--regions", try countryRegions(count), "--transitions", "--json"])
            #expect(run.result.status == 0, "\(run.result.stderr)")
            return run
        }
        let small = try run(40_000)
        let large = try run(440_000)
        let perRegion = Double(large.peakKilobytes - small.peakKilobytes) * 1024 / 400_000
        print("bytes per region: \(Int(perRegion))")
        // 143 B at 10M in a release build (fewer grid cells per region there); was 970 B.
        #expect(perRegion < 200)
    }

    @Test("a task costs under 1 KB, from the tasks file to the last reminder")
    func perTaskMemory() throws {
        let feed = try devices(1, fixes: 400)
        func run(_ count: Int) throws -> MeasuredRun {
            let run = try RepeatSimBinary.runMeasured(["replay", feed, "--tasks", try tasks(count), "--json"])
            #expect(run.result.status == 0, "\(run.result.stderr)")
            return run
        }
        let small = try run(2_000)
        let large = try run(32_000)
        #expect(large.result.lines.count > 10_000, "the overdue tasks fire at the first fix")
        let perTask = Double(large.peakKilobytes - small.peakKilobytes) * 1024 / 30_000
        print("bytes per task: \(Int(perTask))")
        #expect(perTask < 1_024)
    }

    @Test("each setting of an evaluate sweep with tasks holds under 150 bytes a task")
    func perSettingTaskMemory() throws {
        let feed = try devices(1, fixes: 400)
        let shops = try regions(300)
        let errands = try tasks(32_000)
        // On one thread, as below: the settings then detect one after
        // another, and only their state is held at once.
        func peak(_ confirms: String) throws -> Int {
            let run = try RepeatSimBinary.runMeasured(
                [
                    "evaluate", feed, "--truth", feed, "--regions", shops, "--tasks", errands, "--sweep",
                    "confirm=" + confirms, "--jobs", "1", "--json",
                ])
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.lines.count == confirms.split(separator: ",").count)
            return run.peakKilobytes * 1024
        }
        let one = try peak("1")
        let five = try peak("1,2,3,4,5")
        let perTask = Double(five - one) / 4 / 32_000
        print("evaluate --tasks: bytes per task and setting: \(Int(perTask))")
        // Each setting's scheduler holds its tasks' state (80 bytes each)
        // and their appointments: 120 bytes a task in all. The events of
        // the clock's start, once kept whole in each setting, took 50 more,
        // and the state's optional times 24.
        #expect(perTask < 150)
    }

    @Test("per-device state stays under 1 KB, and less once devices go idle")
    func perDeviceMemory() throws {
        let shops = try regions(300)
        // On one thread: with worker threads, what a run holds in flight
        // (reads decoded ahead, slices not yet taken) depends on how the
        // threads were scheduled, and under a loaded machine it varied by
        // more than the idle devices save. The state per device is the same.
        func peak(_ feed: String, _ extra: [String] = []) throws -> Int {
            let run = try RepeatSimBinary.runMeasured(
                ["replay", feed, "--regions", shops, "--transitions", "--json", "--jobs", "1"] + extra)
            #expect(run.result.status == 0, "\(run.result.stderr)")
            return run.peakKilobytes * 1024
        }
        // All devices active at once: the working state of each. Both feeds
        // hold 248 000 fixes, so that what a run holds in flight (a read's
        // fixes and events) is the same in both.
        let small = try peak(try devices(1_000, fixes: 248))
        let large = try peak(try devices(31_000, fixes: 8))
        let active = Double(large - small) / 30_000
        // One after another over 17 hours: with --device-idle 1m about forty
        // are active at a time in both feeds; the rest are kept packed.
        let staggeredSmall = try peak(try devices(1_000, fixes: 248, stagger: 62), ["--device-idle", "1m"])
        let staggeredLarge = try peak(try devices(31_000, fixes: 8, stagger: 2), ["--device-idle", "1m"])
        let idle = Double(staggeredLarge - staggeredSmall) / 30_000
        print("bytes per device: \(Int(active)) active, \(Int(idle)) idle")
        #expect(active < 1_024)
        #expect(idle < active * 0.75)
    }

    @Test("evaluate --report of a feed through a pipe holds no more for ten times the fixes on the same paths")
    func pipedEvaluationMemory() throws {
        let shops = try regions(300)
        // The feed is its own truth; both are the same 200 walks, so that
        // the events (and what the report looks up for them) are the same.
        // Without hysteresis nothing is missed, so the detail keeps no
        // miss's window (whose fixes grow with the feed's rate). On one
        // thread, as above.
        func peak(split: Int) throws -> Int {
            let feed = try walks(split: split)
            let run = try RepeatSimBinary.runMeasured(
                [
                    "evaluate", "-", "--truth", feed, "--regions", shops, "--hysteresis", "0", "--jobs", "1",
                    "--report", folder + "/piped-\(split).html",
                ], input: try [UInt8](Data(contentsOf: URL(fileURLWithPath: feed))))
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.stderr.contains("evaluate: 1 setting on \(200 * 100 * split) fixes of 200 device(s)"))
            return run.peakKilobytes * 1024
        }
        let small = try peak(split: 1)
        let large = try peak(split: 10)
        print("evaluate --report through a pipe: \(small / 1_000_000) MB for 20 000 fixes, \(large / 1_000_000) MB for 200 000")
        // Keeping the feed (before pipes were copied) took 25–30 MB more.
        #expect(large - small < 5_000_000)
    }

    @Test("evaluate holds a few hundred points of each truth track, however many the track has")
    func truthTrackMemory() throws {
        let shops = try regions(300)
        let feed = try walks(split: 1)
        // The truth is the same 200 walks in 100 or 3 000 points each, so
        // that its true events are the same; on one thread, as above.
        func peak(split: Int) throws -> Int {
            let run = try RepeatSimBinary.runMeasured(
                ["evaluate", feed, "--truth", try walks(split: split), "--regions", shops, "--jobs", "1", "--json"])
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.stderr.contains("on 20000 fixes of 200 device(s)"), "\(run.result.stderr)")
            return run.peakKilobytes * 1024
        }
        let short = try peak(split: 1)
        let long = try peak(split: 30)
        print("evaluate, truth of 200 walks: \(short / 1_000_000) MB in 100 points each, \(long / 1_000_000) MB in 3 000")
        // Scanned 4 096 points at a time, each track was held whole here
        // (16 MB more for the 200).
        #expect(long - short < 5_000_000)
    }

    /// 200 devices walking as in ``devices(_:fixes:stagger:)`` for 100 steps
    /// of 10 s, each step cut into `split` fixes: the same paths in `split`
    /// times as many fixes.
    func walks(split: Int) throws -> String {
        var random = SeededRandom(seed: 8)
        var rows: [(time: Double, line: String)] = []
        for device in 0..<200 {
            var lat = 52.52 + random.uniform(-0.0135, 0.0135)
            var lon = 13.40 + random.uniform(-0.022, 0.022)
            for step in 0..<100 {
                let (dLat, dLon) = (random.uniform(-0.0002, 0.0002), random.uniform(-0.0003, 0.0003))
                for part in 1...split {
                    let time = 1_740_823_200 + Double(step) * 10 + Double(part) * 10 / Double(split)
                    let share = Double(part) / Double(split)
                    rows.append((time, "\(time),\(lat + dLat * share),\(lon + dLon * share),device-\(device)"))
                }
                (lat, lon) = (lat + dLat, lon + dLon)
            }
        }
        rows.sort { $0.time < $1.time }
        return try file("walks-\(split).csv", "time,lat,lon,device\n" + rows.map(\.line).joined(separator: "\n"))
    }
}
