import Foundation
import Glibc
import Pipeline
import TestSupport
import Testing

/// The serial source against real pseudo-terminals from `openpty`.
///
/// Waits are deadlines (generous, for a loaded 2-core machine), never speed
/// asserts; delays in the assertions are the backoff policy's own values.
@Suite("Serial source over openpty", .serialized)
struct SerialSourceTests {
    /// Fast retries and a short silence threshold, so the tests stay short.
    static let options = LiveSourceOptions(
        backoff: BackoffPolicy(initialDelay: .milliseconds(50), factor: 2, maximumDelay: .milliseconds(400)),
        silenceThreshold: .milliseconds(300)
    )

    @Test("paced NMEA with noise and a pause arrives intact; a closed master is a disconnect, then retries", .needsSharedCorpus)
    func pacedNMEAThroughOpenpty() async throws {
        let seed = SeededRandom.testSeed(default: 0x5E71A1)
        print("SerialSourceTests seed: \(seed) (set REPEAT_SEED to replay)")
        let feed = try PacedNMEA(log: "bt451.log", seed: seed)
        let folder = try TemporaryFolder(prefix: "repeat-openpty")
        defer { folder.remove() }
        let pty = try PseudoTerminal(linkPath: folder.path + "/gps0")
        let recorder = EventRecorder(SerialSource(path: pty.linkPath, baud: .b4800, options: Self.options).events())

        try await recorder.waitUntil("the device to open") { $0.statuses.contains(where: \.isConnected) }
        let firstHalf = try await feed.send(pausingFor: recorder) { try await pty.write($0) }

        pty.close()
        try await recorder.waitUntil("a disconnect and two retries") { events in
            let statuses = events.statuses
            guard let lost = statuses.firstIndex(where: \.isDisconnected) else { return false }
            return statuses[lost...].compactMap(\.retryDelay).count >= 2
        }
        await recorder.stop()

        let received = recorder.bytes
        #expect(received == feed.bytes, "the bytes read differ from the bytes written (\(received.count) vs \(feed.bytes.count))")
        #expect(PacedNMEA.sentencesInOrder(feed.sentences, in: received) == feed.sentences.count, "sentences lost or reordered")
        #expect(PacedNMEA.silenceAfter(bytes: firstHalf, in: recorder.events), "no silence warning in the pause")

        let statuses = recorder.statuses
        let firstLoss = statuses.firstIndex(where: \.isDisconnected)
        let lost = try #require(firstLoss)
        let delays = statuses[lost...].compactMap(\.retryDelay)
        #expect(Array(delays.prefix(2)) == [.milliseconds(50), .milliseconds(100)], "retries follow the backoff policy")
        // Every byte was delivered before the disconnect was reported.
        let disconnectEvent = try #require(
            recorder.events.firstIndex { if case .status(let s) = $0 { s.isDisconnected } else { false } })
        #expect(Array(recorder.events[..<disconnectEvent]).byteCount == feed.bytes.count)
    }

    @Test("the device is held exclusively and released when the consumer is cancelled")
    func exclusiveAndReleasedOnCancel() async throws {
        let folder = try TemporaryFolder(prefix: "repeat-openpty")
        defer { folder.remove() }
        let pty = try PseudoTerminal(linkPath: folder.path + "/gps0")
        let source = SerialSource(path: pty.linkPath, baud: .b9600, options: Self.options)
        let holder = EventRecorder(source.events())
        try await holder.waitUntil("the device to open") { $0.statuses.contains(where: \.isConnected) }

        let contender = EventRecorder(
            SerialSource(path: pty.linkPath, baud: .b9600, options: LiveSourceOptions(maximumConsecutiveFailures: 1)).events())
        let refused = try await contender.waitForEnd()
        guard case .failure(let error) = refused, case .gaveUp(_, _, let reason)? = error as? LiveSourceError else {
            Issue.record("a second open of a held device should give up, got \(refused)")
            return
        }
        #expect(reason.contains("in use") || reason.contains("busy"), "unexpected refusal: \(reason)")

        await holder.stop()
        let successor = EventRecorder(source.events())
        try await successor.waitUntil("a reopen after the first reader was cancelled") {
            $0.statuses.contains(where: \.isConnected)
        }
        await successor.stop()
    }

    @Test("NMEA misread at the wrong speed is said once, naming the speed; NMEA at the right one, or another format, is not")
    func wrongSpeedIsSaid() async throws {
        let nmea = LineSpeedCheckTests.nmea
        let misread = SerialLine.receive(nmea, sentAt: 9600, readAt: 4800)
        // A device read as another format (--format csv) is not watched.
        for (bytes, watched, garbled) in [(misread, true, true), (nmea, true, false), (misread, false, false)] {
            let folder = try TemporaryFolder(prefix: "repeat-openpty")
            defer { folder.remove() }
            let pty = try PseudoTerminal(linkPath: folder.path + "/gps0")
            var options = Self.options
            options.watchesForSentences = watched
            let recorder = EventRecorder(SerialSource(path: pty.linkPath, baud: .b4800, options: options).events())
            try await recorder.waitUntil("the device to open") { $0.statuses.contains(where: \.isConnected) }
            try await pty.write(Array(bytes.prefix(3000)))
            try await recorder.waitUntil("the bytes") { $0.byteCount >= 3000 }
            await recorder.stop()
            let said = recorder.statuses.filter { if case .noSentence = $0 { true } else { false } }
            #expect(said == (garbled ? [.noSentence(endpoint: pty.linkPath, bytes: 1024, baud: 4800)] : []))
        }
        #expect(
            LiveSourceStatus.noSentence(endpoint: "/dev/ttyUSB0", bytes: 1024, baud: 4800).description
                == "no NMEA sentence in the first 1024 bytes from /dev/ttyUSB0 at 4800 baud: is the receiver at "
                + "another speed (--baud 9600, --baud 38400, --baud 115200), or sending a binary protocol (u-blox UBX, SiRF)?")
    }

    @Test("a path that is not a terminal ends the stream at once")
    func notATerminal() async throws {
        let folder = try TemporaryFolder(prefix: "repeat-openpty")
        defer { folder.remove() }
        let path = folder.path + "/plain.nmea"
        #expect(FileManager.default.createFile(atPath: path, contents: Array("$GPGGA\r\n".utf8).withUnsafeBytes { Data($0) }))
        let recorder = EventRecorder(SerialSource(path: path, baud: .b4800, options: Self.options).events())
        let ending = try await recorder.waitForEnd()
        guard case .failure(let error) = ending else {
            Issue.record("expected notATerminal, the stream ended without error")
            return
        }
        #expect(error as? LiveSourceError == .notATerminal(path: path))
        #expect(recorder.statuses.isEmpty)
    }

    @Test("a missing device is retried with growing delays, then given up when limited")
    func missingDeviceGivesUp() async throws {
        let path = "/dev/repeat-no-such-receiver"
        var options = Self.options
        options.maximumConsecutiveFailures = 4
        let recorder = EventRecorder(SerialSource(path: path, baud: .b4800, options: options).events())
        let ending = try await recorder.waitForEnd()
        #expect(recorder.statuses.compactMap(\.retryDelay) == [.milliseconds(50), .milliseconds(100), .milliseconds(200)])
        guard case .failure(let error) = ending, case .gaveUp(let endpoint, let attempts, let reason)? = error as? LiveSourceError
        else {
            Issue.record("expected gaveUp, got \(ending)")
            return
        }
        #expect(endpoint == path)
        #expect(attempts == 4)
        #expect(reason.contains("No such file"))
        // With the ports a receiver would be at, or the question whether one is plugged in.
        #expect(reason.contains("is it plugged in?") || reason.contains("the receivers' ports here: /dev/"), "\(reason)")
    }
}
