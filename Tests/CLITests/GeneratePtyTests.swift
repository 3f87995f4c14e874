import Foundation
import GeoCore
import Glibc
import TestSupport
import Testing

/// `repeat-sim generate --pty`: a real pseudo-terminal read by `live`, by
/// gpsd, by nobody; refused paces and Ctrl-C. Every wait is bounded and
/// every child is killed on the way out.
@Suite("repeat-sim generate --pty", .serialized)
struct GeneratePtyTests {
    /// 0.0122° of longitude east along 52.52 N (≈ 826 m) by car: about a
    /// minute at 13.9 m/s, through a 100 m shop fence half way.
    static let drive = "52.52,13.40;52.52,13.4122"
    static let shop = "id,lat,lon,radius\nshop,52.52,13.4061,100\n"

    static let gpsd = "/usr/sbin/gpsd"
    static let gpsdInstalled = FileManager.default.isExecutableFile(atPath: gpsd)

    @Test("live --device LINK sees the reminder of the shop the drive passes through; generate exits 0 and removes LINK")
    func liveReader() throws {
        let folder = temporaryDirectory("repeat-gen-pty-live")
        let link = folder + "/gps0"
        try Self.shop.write(toFile: folder + "/shop.csv", atomically: true, encoding: .utf8)
        let generate = try RunningRepeatSim([
            "generate", "--via", Self.drive, "--profile", "car", "--pty", link, "--pace", "20", "--baud", "115200",
        ])
        defer { generate.stop() }
        try waitUntil("generate to link \(link)", seconds: 10) { isLink(link) }
        let live = try RunningRepeatSim([
            "live", "--device", link, "--regions", folder + "/shop.csv", "--json", "--db", folder + "/tasks.sqlite",
        ])
        defer { live.stop() }
        try waitUntil("generate to write the drive and exit", seconds: 20) { !generate.isRunning }
        #expect(generate.status == 0, "\(generate.diagnosticsText)")
        #expect(!isLink(link), "the link is removed")
        let fixes = try #require(fixCount(generate.diagnosticsText), "\(generate.diagnosticsText)")
        #expect(fixes > 50)
        try waitUntil("live to evaluate the fixes", seconds: 10) {
            live.diagnosticsText.contains("end of file") || live.diagnosticsText.contains("lost \(link)")
        }
        live.send(SIGINT)
        try waitUntil("live to exit after SIGINT", seconds: 10) { !live.isRunning }
        #expect(live.status == 0)
        #expect(
            live.outputText.contains(#""kind":"location","task":"shop","title":"shop","region":"shop""#),
            "\(live.outputText)\n\(live.diagnosticsText)")
        // Every fix, but for an epoch or two the reader's own line set-up may
        // flush as it opens the device under load.
        let evaluated = try #require(
            live.diagnosticsText.firstMatch(of: /live: (\d+) fixes evaluated from 1 device/).flatMap { Int($0.1) },
            "\(live.diagnosticsText)")
        #expect((fixes - 2...fixes).contains(evaluated), "\(evaluated) of \(fixes): \(live.diagnosticsText)")
    }

    @Test("a pace that does not fit the baud is refused before anything is written, naming the baud it needs")
    func paceTooFast() throws {
        let link = temporaryDirectory("repeat-gen-pty-baud") + "/gps0"
        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.drive, "--interval", "0.1s", "--pace", "10", "--baud", "4800", "--pty", link,
        ])
        #expect(result.status == 1)
        #expect(!isLink(link), "no link left")
        #expect(result.stdout.isEmpty)
        // "at --pace 10.0 this feed needs N baud (N/10 bytes/s at 8N1) and --baud 4800 carries 480 bytes/s: use --baud R, …"
        let message = result.stderr
        let needed = try #require(
            message.firstMatch(of: /needs (\d+) baud/).flatMap { Int($0.1) }, "\(message)")
        // The first epoch's bytes, 10 epochs a second of feed, 10 times faster, 10 bits a byte (8N1).
        let feed = try RepeatSimBinary.run(["generate", "--via", Self.drive, "--interval", "0.1s"])
        let epoch = feed.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).prefix(3).map { $0.utf8.count + 2 }
        #expect(needed == epoch.reduce(0, +) * 10 * 10 * 10)
        #expect(message.contains("--baud 4800 carries 480 bytes/s"), "\(message)")
        let rate = try #require(message.firstMatch(of: /use --baud (\d+)/).flatMap { Int($0.1) }, "\(message)")
        #expect(rate >= needed)
        #expect(!message.contains("waiting for a reader"))
    }

    @Test("Ctrl-C while waiting for a reader stops cleanly: exit 0, the link removed")
    func interruptWhileWaiting() throws {
        let link = temporaryDirectory("repeat-gen-pty-int") + "/gps0"
        let generate = try RunningRepeatSim(["generate", "--via", Self.drive, "--pty", link])
        defer { generate.stop() }
        try waitUntil("generate to wait for a reader", seconds: 10) {
            isLink(link) && generate.diagnosticsText.contains("waiting for a reader")
        }
        generate.send(SIGINT)
        try waitUntil("generate to exit after SIGINT", seconds: 10) { !generate.isRunning }
        #expect(generate.status == 0, "\(generate.diagnosticsText)")
        #expect(!isLink(link), "the link is removed")
        #expect(generate.diagnosticsText.contains("generate: stopped; 0 fixes written to \(link)"), "\(generate.diagnosticsText)")
        #expect(!generate.diagnosticsText.contains("Error"), "\(generate.diagnosticsText)")
    }

    @Test("a reader gets the whole feed: every fix, the last one too, and GPX's closing tags")
    func wholeFeed() throws {
        let folder = temporaryDirectory("repeat-gen-pty-whole")
        // A hang-up drops what the device still holds: a close right after the last
        // write lost the last epoch in about one run of four, so three runs of each.
        for (run, format) in ["gpx", "nmea", "gpx", "nmea", "gpx", "nmea"].enumerated() {
            let link = folder + "/gps\(run)"
            let generate = try RunningRepeatSim([
                "generate", "--via", Self.drive, "--profile", "car", "--format", format, "--pty", link, "--pace", "60",
                "--baud", "921600",
            ])
            defer { generate.stop() }
            try waitUntil("generate to link \(link)", seconds: 10) { isLink(link) }
            let reader = open(link, O_RDONLY | O_NOCTTY | O_NONBLOCK)
            try #require(reader >= 0)
            defer { close(reader) }
            // Raw, as a serial reader makes it: a line discipline that echoes would stall on its echo.
            var settings = termios()
            tcgetattr(reader, &settings)
            cfmakeraw(&settings)
            tcsetattr(reader, TCSANOW, &settings)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Read until the hang-up (EIO, or end of file), as a serial reader does.
            try waitUntil("the feed through the pty and the hang-up", seconds: 20) {
                let count = read(reader, &buffer, buffer.count)
                if count > 0 { received += buffer[0..<count] }
                return count == 0 || (count < 0 && errno == EIO)
            }
            try waitUntil("generate to exit", seconds: 10) { !generate.isRunning }
            let fixes = try #require(fixCount(generate.diagnosticsText), "\(generate.diagnosticsText)")
            let text = String(decoding: received, as: UTF8.self)
            let marker = format == "gpx" ? "<trkpt " : "$GPRMC"
            #expect(text.components(separatedBy: marker).count - 1 == fixes, "run \(run) (\(format)): \(text.suffix(200))")
            if format == "gpx" { #expect(text.hasSuffix("</gpx>\n"), "run \(run): \(text.suffix(200))") }
        }
    }

    @Test("Ctrl-C while writing stops cleanly: exit 0, what was written counted, the link removed")
    func interruptWhileWriting() throws {
        let folder = temporaryDirectory("repeat-gen-pty-int2")
        let link = folder + "/gps0"
        let generate = try RunningRepeatSim([
            "generate", "--via", Self.drive, "--pty", link, "--manifest", folder + "/run.json",
        ])
        defer { generate.stop() }
        try waitUntil("generate to link \(link)", seconds: 10) { isLink(link) }
        let reader = open(link, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { if reader >= 0 { close(reader) } }
        // At real time, one epoch a second: let a couple through, then interrupt.
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        try waitUntil("two epochs through the pty", seconds: 10) {
            let count = read(reader, &buffer, buffer.count)
            if count > 0 {
                received += String(decoding: buffer[0..<count], as: UTF8.self).components(separatedBy: "RMC").count - 1
            }
            return received >= 2
        }
        generate.send(SIGINT)
        try waitUntil("generate to exit after SIGINT", seconds: 10) { !generate.isRunning }
        #expect(generate.status == 0, "\(generate.diagnosticsText)")
        #expect(!isLink(link), "the link is removed")
        let stopped = try #require(
            generate.diagnosticsText.firstMatch(of: /generate: stopped; (\d+) fixes written/).flatMap { Int($0.1) },
            "\(generate.diagnosticsText)")
        #expect(stopped >= 2 && stopped < 50)
        let manifest = try String(contentsOfFile: folder + "/run.json", encoding: .utf8)
        #expect(manifest.contains(#""fixes":\#(stopped)"#), "\(manifest)")
    }

    @Test(
        "a real gpsd reads the pty and serves the generated fixes",
        .enabled(if: gpsdInstalled, "gpsd is not installed at /usr/sbin/gpsd (Scripts/setup.sh installs it)"))
    func gpsdServes() throws {
        let folder = temporaryDirectory("repeat-gen-pty-gpsd")
        let link = folder + "/gps0"
        let arguments = ["generate", "--via", Self.drive, "--profile", "car", "--environment", "urban", "--seed", "3"]
        // The same feed into a file: what gpsd should serve.
        let file = try RepeatSimBinary.run(arguments + ["--out", folder + "/feed.nmea"])
        #expect(file.status == 0, "\(file.stderr)")
        let decoded = try RepeatSimBinary.run(["decode", folder + "/feed.nmea", "--json"])
        var expected: [Int64: Coordinate] = [:]
        for line in try jsonLines(decoded.stdout) {
            let time = try time(line["time"])
            expected[time.nanoseconds] = Coordinate(
                latitude: try #require(line["lat"] as? Double), longitude: try #require(line["lon"] as? Double))
        }
        #expect(expected.count > 50)

        let generate = try RunningRepeatSim(arguments + ["--pty", link, "--pace", "20", "--baud", "115200"])
        defer { generate.stop() }
        try waitUntil("generate to link \(link)", seconds: 10) { isLink(link) }
        let port = try freeLocalPort()
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Self.gpsd)
        daemon.arguments = ["-N", "-n", "-S", "\(port)", link]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
            daemon.waitUntilExit()
        }
        let client = try RunningRepeatSim(["decode", "--gpsd", "127.0.0.1:\(port)", "--json"])
        defer { client.stop() }
        try waitUntil("generate to write the drive and exit", seconds: 30) { !generate.isRunning }
        #expect(generate.status == 0, "\(generate.diagnosticsText)")
        #expect(!isLink(link), "the link is removed")
        usleep(300_000)  // the last reports on their way through gpsd

        let served = try jsonLines(client.outputText)
        var times = Set<Int64>()
        for line in served {
            let time = try time(line["time"])
            let position = Coordinate(
                latitude: try #require(line["lat"] as? Double), longitude: try #require(line["lon"] as? Double))
            let generated = try #require(expected[time.nanoseconds], "gpsd served a fix at \(RFC3339.format(time))")
            #expect(Geodesy.distance(position, generated) < 0.01, "at \(RFC3339.format(time))")
            times.insert(time.nanoseconds)
        }
        // gpsd may start a few epochs late (it opens the device, then the client connects).
        #expect(times.count >= expected.count / 2, "\(times.count) of \(expected.count): \(client.diagnosticsText)")
    }

    // MARK: Helpers

    /// A JSON value that must be an RFC 3339 time.
    func time(_ value: Any?) throws -> Timestamp {
        let text = try #require(value as? String)
        return try #require(RFC3339.parse(text), "'\(text)' is not an RFC 3339 time")
    }

}

/// Whether a symbolic link (or anything) is at `path`, not following it.
private func isLink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
}

/// `generate: N fixes (…` from generate's summary.
private func fixCount(_ diagnostics: String) -> Int? {
    diagnostics.firstMatch(of: /generate: (\d+) fixes \(/).flatMap { Int($0.1) }
}
