import FeedParsing
import Foundation
import GeoCore
import Glibc
import TaskStore
import TestSupport
import Testing

/// `repeat-sim live` end to end: standard input, the store's tasks and
/// notification log, and Ctrl-C over a real socat pseudo-terminal.
@Suite("repeat-sim live")
struct LiveCommandTests {
    static let drives = RepositoryPaths.track("cat-medicine/drives.gpx")
    static let scenario = RepositoryPaths.track("cat-medicine/scenario.json")

    @Test("standard input gives the same reminders as replay")
    func standardInput() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.drives)))
        let live = try RepeatSimBinary.run(["live", "-", "--tasks", Self.scenario, "--json"], input: bytes)
        let replay = try RepeatSimBinary.run(["replay", Self.drives, "--tasks", Self.scenario, "--json"])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout == replay.stdout)
        #expect(live.stdout.split(separator: "\n").count == 3)
        #expect(live.stderr.contains("live: 312 fixes evaluated"))
    }

    @Test("a receiver's start-up banner, sent line by line, does not decide the format: every fix is evaluated")
    func bannerFirst() throws {
        let folder = temporaryDirectory("repeat-live-banner")
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(
            toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
        let live = try RunningRepeatSim(
            ["live", "-", "--regions", folder + "/regions.csv", "--json", "--db", folder + "/tasks.sqlite"], input: true)
        defer { live.stop() }
        // 10 KB: a format guessed from the first 4 KB would be CSV.
        for k in 0..<120 {
            live.write(Data("u-blox AG - www.u-blox.com boot message \(k): ROM CORE 3.01 (107888) GPS;GLO\r\n".utf8))
            if k % 10 == 0 { usleep(20_000) }  // small reads, as from a serial line
        }
        let track = try Data(contentsOf: URL(fileURLWithPath: DecodeCommandTests.nmeaTrack))
        live.write(track)
        live.closeInput()
        try waitUntil("live to end with its input") { !live.isRunning }
        #expect(live.status == 0, "\(live.diagnosticsText)")
        // The track's 68 fixes: 64 evaluated, 4 too inaccurate; none lost to the banner.
        #expect(live.diagnosticsText.contains("live: 64 fixes evaluated"), "\(live.diagnosticsText)")
        #expect(live.diagnosticsText.contains("ignored fixes: 4 inaccurate"), "\(live.diagnosticsText)")
    }

    /// `live -` with the shop region, fed by the test.
    static func liveAtTheShop(_ label: String) throws -> RunningRepeatSim {
        let folder = temporaryDirectory(label)
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(
            toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
        return try RunningRepeatSim(
            ["live", "-", "--regions", folder + "/regions.csv", "--json", "--db", folder + "/tasks.sqlite"], input: true)
    }

    /// One receiver epoch (RMC + GGA) at 1994-03-23T12:35:00Z + `second`, in the shop or without a fix.
    static func epoch(_ second: Int, valid: Bool) -> Data { epoch(at: Int64(764_426_100 + second), valid: valid) }

    /// One epoch standing in the shop at `seconds` since 1970.
    static func epoch(at seconds: Int64, valid: Bool) -> Data {
        let fix = Fix(
            time: Timestamp(nanoseconds: seconds * 1_000_000_000),
            coordinate: Coordinate(latitude: 48.1173, longitude: 11 + 31.0 / 60), speed: 0, course: 0)
        var bytes: [UInt8] = []
        var encoder = NMEAEncoder(sentences: [.rmc, .gga])
        encoder.append(fix, valid: valid, to: &bytes)
        return Data(bytes)
    }

    static let arrival = #""kind":"location","task":"shop""#

    @Test("an arrival followed only by no-fix epochs is reminded once the window has passed on the receiver's clock")
    func noFixEpochsMoveTheClock() throws {
        let live = try Self.liveAtTheShop("repeat-live-nofix")
        defer { live.stop() }
        live.write(Self.epoch(0, valid: true))
        // Indoors: the receiver goes on with status V, an epoch every 0.3 s here (no pause for
        // the quiet release); once epoch 6 is complete, 6 s of its clock is past the 5 s window.
        for second in 1...9 {
            usleep(300_000)
            live.write(Self.epoch(second, valid: false))
        }
        try waitUntil("the arrival's reminder, input still open") { live.outputText.contains(Self.arrival) }
        #expect(live.isRunning)
        live.closeInput()
        try waitUntil("live to end with its input") { !live.isRunning }
        #expect(live.outputText.components(separatedBy: Self.arrival).count == 2, "one reminder: \(live.outputText)")
    }

    @Test("a receiver that goes quiet after its arrival epoch: the reminder comes after the pause, not at Ctrl-C")
    func quietReleasesTheEpoch() throws {
        let live = try Self.liveAtTheShop("repeat-live-quiet")
        defer { live.stop() }
        live.write(Self.epoch(0, valid: true))
        // Neither a next epoch nor a fix 5 s later ever comes: the 1 s pause completes the epoch and empties the window.
        try waitUntil("the arrival's reminder, input still open") { live.outputText.contains(Self.arrival) }
        #expect(live.isRunning)
        // Fixes after the early release still count, in order.
        live.write(Self.epoch(1, valid: true))
        live.write(Self.epoch(2, valid: true))
        live.write(Self.epoch(3, valid: false))
        try waitUntil("the next pause to complete epoch 3") { live.diagnosticsText.contains("epoch 12:35:03 UTC") }
        live.send(SIGHUP)
        try waitUntil("live to end after SIGHUP") { !live.isRunning }
        #expect(live.status == 0)
        #expect(
            live.diagnosticsText.contains("live: 3 fixes evaluated from 1 device, 1 transitions, 1 reminders"),
            "\(live.diagnosticsText)")
    }

    @Test("task rm while live runs: the reminder already due is logged without its task, said once, and fires no more")
    func taskRemovedWhileLive() throws {
        let db = temporaryDirectory("repeat-live-rm") + "/tasks.sqlite"
        let add = try RepeatSimBinary.run([
            "task", "add", "--title", "Shop", "--id", "shop", "--every", "1d", "--start", "1994-03-01T00:00:00Z",
            "--at-place", "48.1173,11.5167", "--radius", "100", "--db", db,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let live = try RunningRepeatSim(["live", "-", "--db", db, "--json", "--reload", "1h"], input: true)
        defer { live.stop() }
        live.write(Self.epoch(-10, valid: false))
        try waitUntil("live to read its input") { live.diagnosticsText.contains("invalidFix") }
        #expect(try RepeatSimBinary.run(["task", "rm", "shop", "--db", db]).status == 0)
        // The arrival: live still has the task (its next re-read is an hour away).
        live.write(Self.epoch(0, valid: true))
        try waitUntil("the arrival's reminder") { live.outputText.contains(#""task":"shop""#) }
        // Away for a day and back: the task was read again, and is gone.
        live.write(Self.epoch(86_400, valid: false))
        for second in [90_000, 90_001, 90_002] { live.write(Self.epoch(second, valid: true)) }
        live.closeInput()
        try waitUntil("live to end with its input") { !live.isRunning }
        #expect(live.status == 0)
        // The arrival's reminders (the task was due too), and nothing a day later.
        let lines = live.outputText.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""time":"1994-03-23T12:35:00Z""#) }, "\(live.outputText)")
        let stderr = live.diagnosticsText
        #expect(
            stderr.components(separatedBy: "task shop is no longer in the store (removed?): its reminder is logged without it")
                .count == 2, "said once: \(stderr)")
        #expect(!stderr.contains("could not log"), "\(stderr)")
        let log = try TaskDatabase(readingFrom: db).notifications()
        #expect(log.count == 2)
        #expect(log.allSatisfy { $0.taskID == nil && $0.title == "Shop" }, "\(log)")
    }

    @Test("with the store's tasks, reminders land in its notification log")
    func storeLog() throws {
        let db = temporaryDirectory("repeat-live-store") + "/tasks.sqlite"
        #expect(try RepeatSimBinary.run(["task", "import", Self.scenario, "--db", db]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.drives)))
        let live = try RepeatSimBinary.run(["live", "-", "--db", db, "--json"], input: bytes)
        #expect(live.status == 0, "\(live.stderr)")
        let show = try RepeatSimBinary.run(["task", "show", "cat-medicine", "--db", db, "--at", "2021-01-12T00:00:00Z"])
        #expect(show.stdout.contains("reminded   2021-01-11 09:00 +01:00 due"))
        #expect(show.stdout.contains("reminded   2020-12-18 07:18 +01:00 location at Pharmacy"))
    }

    @Test(
        "usage errors name the way out",
        arguments: [
            (["live"], "give a live input"),
            (["live", "walk.gpx"], "replay reads files like walk.gpx"),
            (["live", "-", "--gpsd", "localhost"], "give one live input"),
        ])
    func usage(arguments: [String], message: String) throws {
        let result = try RepeatSimBinary.run(arguments + ["--tasks", Self.scenario, "--db", temporaryDirectory() + "/t.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a regions file of which nothing reads is an error before anything runs, not a run with nothing to watch")
    func unreadableRegions() throws {
        let folder = temporaryDirectory("repeat-live-junk")
        try "this is not,a regions file\n".write(toFile: folder + "/junk.csv", atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run(
            ["live", "-", "--regions", folder + "/junk.csv", "--db", folder + "/t.sqlite"], input: [])
        #expect(result.status == 1)
        #expect(result.stderr.contains("junk.csv:1: expected at least 4 fields, got 2"), "\(result.stderr)")
        #expect(result.stderr.contains("Error: no usable region in \(folder)/junk.csv"), "\(result.stderr)")
        #expect(!result.stderr.contains("live:"), "no run: \(result.stderr)")
    }

    /// `live --device` on a socat pty, watching a shop in Munich (100 m) with
    /// `--json`, once it has opened the device; `feeder` writes to the pty.
    static func liveOnAPty(_ label: String) throws -> (pair: SocatPair, live: RunningRepeatSim, feeder: FileHandle) {
        let folder = temporaryDirectory(label)
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(
            toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
        let pair = try SocatPair(label: label)
        let live: RunningRepeatSim
        do {
            live = try RunningRepeatSim([
                "live", "--device", pair.receiver, "--regions", folder + "/regions.csv", "--json", "--db",
                folder + "/tasks.sqlite",
            ])
        } catch {
            pair.stop()
            throw error
        }
        do {
            try waitUntil("the device to open") { live.diagnosticsText.contains("connected to") }
            return (pair, live, try #require(FileHandle(forWritingAtPath: pair.sender)))
        } catch {
            stop(live, pair)
            throw error
        }
    }

    /// Ends `live`, then the pty it reads.
    static func stop(_ live: RunningRepeatSim, _ pair: SocatPair) {
        live.stop()
        pair.stop()
    }

    @Test("a receiver opened after its power-up noise, in the middle of a sentence, is read as NMEA")
    func openedMidStream() throws {
        let (pair, live, feeder) = try Self.liveOnAPty("repeat-live-mid")
        defer { Self.stop(live, pair) }
        // Noise that opens like XML, then the tail of a sentence that opens like a CSV row.
        let noise: [UInt8] = [0x3C, 0x8A, 0xFF, 0x0D, 0x0A] + Array("0.00,0.00,080407,,,A*6E\r\n".utf8)
        feeder.write(Data(noise) + (19...21).map { Self.epoch($0, valid: true) }.reduce(Data(), +))
        // The pause after the fixes releases them: the arrival reminds.
        try waitUntil("the reminder") { live.outputText.contains(#""kind":"location""#) }
        live.send(SIGINT)
        try waitUntil("live to exit after SIGINT") { !live.isRunning }
        #expect(live.status == 0)
        #expect(live.diagnosticsText.contains("live: 3 fixes evaluated from 1 device, 1 transitions"), "\(live.diagnosticsText)")
        #expect(!live.diagnosticsText.contains("no NMEA sentence"), "a sentence came in the first KiB")
    }

    @Test("a receiver whose GPS week number rolled over has its times read 1024 weeks later, with a word")
    func weekRollover() throws {
        let (pair, live, feeder) = try Self.liveOnAPty("repeat-live-wnro")
        defer { Self.stop(live, pair) }
        let now = Int64(Date().timeIntervalSince1970)
        let era: Int64 = 1024 * 7 * 86_400
        feeder.write((0..<3).map { Self.epoch(at: now - era + $0, valid: true) }.reduce(Data(), +))
        try waitUntil("the reminder") { live.outputText.contains(#""kind":"location""#) }
        live.send(SIGINT)
        try waitUntil("live to exit after SIGINT") { !live.isRunning }
        #expect(live.diagnosticsText.contains("is 1024 weeks behind this computer's clock"), "\(live.diagnosticsText)")
        let line = try #require(live.outputText.split(separator: "\n").first { $0.contains(#""kind":"location""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let text = try #require(object["time"] as? String)
        let time = try #require(RFC3339.parse(text))
        #expect(time.nanoseconds == now * 1_000_000_000, "\(line)")
    }

    @Test("Ctrl-C flushes what the reorder buffer holds, prints the summary and exits 0")
    func interrupt() throws {
        let (pair, live, feeder) = try Self.liveOnAPty("repeat-live-int")
        defer { Self.stop(live, pair) }
        // 1994-03-23T12:35:19Z and on, standing in the shop, a write each.
        for second in 19...21 { feeder.write(Self.epoch(second, valid: true)) }
        // The fixes wait in the 5 s reorder buffer; only the interrupt's flush can release them
        // (the 1 s pause that would release them too has not passed).
        usleep(300_000)
        live.send(SIGINT)
        try waitUntil("live to exit after SIGINT") { !live.isRunning }
        #expect(live.status == 0)
        #expect(
            live.outputText.contains(#""kind":"location","task":"shop","title":"shop","region":"shop""#), "\(live.outputText)")
        let summary = live.diagnosticsText
        #expect(summary.contains("live: 3 fixes evaluated from 1 device, 1 transitions, 1 reminders (location 1)"), "\(summary)")
        #expect(!summary.contains("could not log"), "\(summary)")
    }
}

/// `live` killed with SIGKILL while it logs reminders as fast as it can.
@Suite("repeat-sim live: kill -9")
struct LiveKillTests {
    @Test("kill -9 at any moment leaves the store consistent, and every printed reminder is in its log")
    func killNine() throws {
        let folder = temporaryDirectory("repeat-live-kill")
        let db = folder + "/tasks.sqlite"
        // Always in its window, no cooldown: every entry into the shop reminds.
        try """
        {"tasks": [{"id": "shop", "title": "Shop", "start": "2024-01-01T00:00:00Z",
          "schedule": {"afterCompletion": {"min": "0s", "max": "520w"}},
          "locations": [{"name": "Shop", "lat": 48.1173, "lon": 11.5167, "radius": 100}]}]}
        """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        #expect(try RepeatSimBinary.run(["task", "import", folder + "/tasks.json", "--db", db]).status == 0)
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 9))
        var logged = 0
        var second = 0
        for round in 0..<4 {
            let live = try RunningRepeatSim(
                ["live", "-", "--db", db, "--json", "--cooldown", "0s", "--reorder-window", "0s"], input: true)
            defer { live.stop() }
            // In the shop, then 1 km north, once a second of feed time,
            // until a random moment 0.2–0.8 s of wall time from now.
            let killAt = Date().addingTimeInterval(Double.random(in: 0.2...0.8, using: &random))
            while Date() < killAt {
                var chunk: [UInt8] = []
                var encoder = NMEAEncoder(sentences: .rmc)
                for _ in 0..<200 {
                    let fix = Fix(
                        time: Timestamp(nanoseconds: Int64(1_735_725_600 + second) * 1_000_000_000),  // from 2025-01-01 10:00Z
                        coordinate: Coordinate(latitude: second % 2 == 0 ? 48.1173 : 48.1263, longitude: 11 + 31.0 / 60),
                        speed: 0, course: 0)
                    encoder.append(fix, valid: true, to: &chunk)
                    second += 1
                }
                guard live.write(Data(chunk)) else { break }
            }
            live.send(SIGKILL)
            try waitUntil("live to die") { !live.isRunning }
            usleep(200_000)  // let the pipe readers drain what it printed

            let database = try TaskDatabase(path: db)
            #expect(try database.integrityProblems() == [], "round \(round)")
            let rows = try database.notifications(limit: 1_000_000).count
            let printed = live.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .filter { $0.contains(#""kind":"location""#) }.count
            // Logged before printed: a printed reminder is never missing.
            #expect(rows - logged >= printed, "round \(round): \(rows - logged) logged, \(printed) printed")
            logged = rows
            #expect(try RepeatSimBinary.run(["task", "list", "--db", db]).status == 0, "the store still opens")
        }
        #expect(logged > 0, "reminders were logged while it ran")
    }
}
