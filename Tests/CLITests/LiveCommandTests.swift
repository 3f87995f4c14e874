import Foundation
import Glibc
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

    @Test("usage errors name the way out", arguments: [
        (["live"], "give a live input"),
        (["live", "walk.gpx"], "replay reads files like walk.gpx"),
        (["live", "-", "--gpsd", "localhost"], "give one live input"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try RepeatSimBinary.run(arguments + ["--tasks", Self.scenario, "--db", temporaryDirectory() + "/t.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("Ctrl-C flushes what the reorder buffer holds, prints the summary and exits 0")
    func interrupt() throws {
        let folder = temporaryDirectory("repeat-live-int")
        let receiver = folder + "/gps", sender = folder + "/feeder"
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "install the apt package socat")
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        socat.arguments = ["pty,raw,echo=0,link=\(receiver)", "pty,raw,echo=0,link=\(sender)"]
        socat.standardError = FileHandle.nullDevice
        try socat.run()
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        try waitFor("socat's pty links") { FileManager.default.fileExists(atPath: receiver) && FileManager.default.fileExists(atPath: sender) }

        let live = Process()
        live.executableURL = URL(fileURLWithPath: RepeatSimBinary.path)
        live.arguments = ["live", "--device", receiver, "--regions", folder + "/regions.csv", "--json", "--db", folder + "/tasks.sqlite"]
        let stdout = Pipe(), stderr = Pipe()
        live.standardOutput = stdout
        live.standardError = stderr
        let output = LockedData(), diagnostics = LockedData()
        stdout.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        stderr.fileHandleForReading.readabilityHandler = { diagnostics.append($0.availableData) }
        try live.run()
        defer {
            if live.isRunning { kill(live.processIdentifier, SIGKILL) }
            stdout.fileHandleForReading.readabilityHandler = nil
            stderr.fileHandleForReading.readabilityHandler = nil
        }
        try waitFor("the device to open") { String(decoding: diagnostics.get(), as: UTF8.self).contains("connected to") }
        let feeder = try #require(FileHandle(forWritingAtPath: sender))
        for second in 19...21 {
            let body = "GPRMC,1235\(second),A,4807.038,N,01131.000,E,0.0,0.0,230394,003.1,W"
            let checksum = body.utf8.reduce(UInt8(0), ^)
            feeder.write(Data("$\(body)*\(String(format: "%02X", checksum))\r\n".utf8))
        }
        // The fixes wait in the 5 s reorder buffer; only the interrupt's flush can release them.
        usleep(300_000)
        kill(live.processIdentifier, SIGINT)
        try waitFor("live to exit after SIGINT") { !live.isRunning }
        #expect(live.terminationStatus == 0)
        let text = String(decoding: output.get(), as: UTF8.self)
        #expect(text.contains(#""kind":"location","task":"shop","title":"shop","region":"shop""#), "\(text)")
        let summary = String(decoding: diagnostics.get(), as: UTF8.self)
        #expect(summary.contains("live: 3 fixes evaluated, 1 transitions, 1 reminders (location 1)"), "\(summary)")
        #expect(!summary.contains("could not log"), "\(summary)")
    }

    /// Waits up to 20 s for `condition`, failing with `what`.
    func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { throw WaitTimeout(what: what) }
            usleep(20_000)
        }
    }

    struct WaitTimeout: Error, CustomStringConvertible {
        let what: String
        var description: String { "gave up waiting for \(what)" }
    }
}
