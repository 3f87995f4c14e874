import Foundation
import TestSupport
import Testing

/// Ctrl-C during `replay` and `decode` of files: what was read is finished
/// and printed, with the summary, and the status is 130; a paced replay's
/// output ends where its clock stood.
@Suite("stopped runs", .serialized)
struct StoppedRunTests {
    /// A walk into the bakery, then (the second half) into the butcher's.
    static let regions = "id,lat,lon,radius\nbakery,52.52,13.40,50\nbutcher,52.53,13.40,50\n"
    static let firstHalf = """
        time,lat,lon
        2025-03-01T10:00:00Z,52.519,13.40
        2025-03-01T10:01:00Z,52.52,13.40
        2025-03-01T10:02:00Z,52.521,13.40

        """
    static let secondHalf = """
        2025-03-01T11:00:00Z,52.529,13.40
        2025-03-01T11:01:00Z,52.53,13.40
        2025-03-01T11:02:00Z,52.531,13.40

        """

    /// Writes the first half into `process`'s input; once `seen`, sends
    /// `signal`, and once the process says it stops, writes the second half
    /// and closes the input; returns when the process has exited.
    static func stopBetweenTheHalves(_ process: RunningRepeatSim, with signal: Int32, once seen: () -> Bool) throws {
        #expect(process.write(Data(firstHalf.utf8)))
        try waitUntil("the first half through", seen)
        process.send(signal)
        try waitUntil("the process to say it stops") { process.diagnosticsText.contains("stopping (signal \(signal))") }
        _ = process.write(Data(secondHalf.utf8))
        process.closeInput()
        try waitUntil("the process to exit") { !process.isRunning }
    }

    /// With more than one job too, a read's reminders come once the pipe
    /// has nothing more, not with the next read.
    @Test(
        "replay -: the reads after Ctrl-C are not evaluated; what came before is printed with the summary; status 130",
        arguments: [1, 2])
    func replayOfAPipe(jobs: Int) throws {
        let folder = temporaryDirectory("repeat-stopped")
        try Self.regions.write(toFile: folder + "/shops.csv", atomically: true, encoding: .utf8)
        let replay = try RunningRepeatSim(
            ["replay", "-", "--regions", folder + "/shops.csv", "--json", "--jobs", String(jobs)], input: true)
        defer { replay.stop() }
        try Self.stopBetweenTheHalves(replay, with: SIGINT) { replay.outputText.contains(#""region":"bakery""#) }
        #expect(replay.status == 130, "\(replay.diagnosticsText)")
        #expect(!replay.outputText.contains("butcher"), "\(replay.outputText)")
        #expect(replay.diagnosticsText.contains("replay: 3 fixes evaluated from 1 device"), "\(replay.diagnosticsText)")
    }

    @Test("decode -: the same, with the feed's summary")
    func decodeOfAPipe() throws {
        let decode = try RunningRepeatSim(["decode", "-", "--json"], input: true)
        defer { decode.stop() }
        try Self.stopBetweenTheHalves(decode, with: SIGTERM) { decode.outputText.split(separator: "\n").count == 3 }
        #expect(decode.status == 130, "\(decode.diagnosticsText)")
        #expect(decode.outputText.split(separator: "\n").count == 3)
        #expect(decode.diagnosticsText.contains("<stdin> (csv): 3 fixes, 0 skipped"), "\(decode.diagnosticsText)")
    }

    @Test("a paced replay: each due reminder waits for its own time, and Ctrl-C ends the output where the clock stood")
    func pacedReplay() throws {
        let arguments = [
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--json",
        ]
        // 300 000 times real time: the due reminder of 28 Dec comes 4.9 s in, that of 11 Jan 9.0 s in.
        let replay = try RunningRepeatSim(arguments + ["--speed", "300000"])
        defer { replay.stop() }
        try waitUntil("the reminder due on 28 Dec") { replay.outputText.contains(#""time":"2020-12-28T08:00:00Z""#) }
        replay.send(SIGINT)
        try waitUntil("replay to exit") { !replay.isRunning }
        #expect(replay.status == 130, "\(replay.diagnosticsText)")
        #expect(!replay.outputText.contains(#""time":"2021-01-11T08:00:00Z""#), "\(replay.outputText)")
        #expect(
            replay.diagnosticsText.contains(
                "replay: stopped at 2020-12-28T08:00:00Z on the feed's clock; 1 reminder it had decided for later was not printed"
            ),
            "\(replay.diagnosticsText)")
        // Unstopped, a paced replay prints what the unpaced one does, in its order.
        let paced = try RepeatSimBinary.run(arguments + ["--speed", "1e12"])
        let unpaced = try RepeatSimBinary.run(arguments)
        #expect(paced.status == 0 && unpaced.status == 0)
        #expect(paced.stdout == unpaced.stdout)
    }
}
