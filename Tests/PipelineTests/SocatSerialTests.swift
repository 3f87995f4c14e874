import Foundation
import Glibc
import Pipeline
import TestSupport
import Testing

/// The serial source reading one end of a socat pseudo-terminal pair while
/// the test writes into the other end (apt: socat).
@Suite("Serial source over a socat pty pair", .serialized)
struct SocatSerialTests {
    @Test(
        "paced NMEA with noise and a pause crosses socat intact; socat's exit is a disconnect, then retries", .needsSharedCorpus)
    func pacedNMEAThroughSocat() async throws {
        let seed = SeededRandom.testSeed(default: 0x50CA7)
        print("SocatSerialTests seed: \(seed) (set REPEAT_SEED to replay)")
        let feed = try PacedNMEA(log: "bt451.log", seed: seed)
        let folder = try TemporaryFolder(prefix: "repeat-socat")
        defer { folder.remove() }
        let readerEnd = folder.path + "/gps-reader"
        let writerEnd = folder.path + "/gps-writer"
        let arguments = ["socat", "-d", "-d", "pty,raw,echo=0,link=\(readerEnd)", "pty,raw,echo=0,link=\(writerEnd)"]
        try await withChildProcess(arguments, aptPackage: "socat", logPath: folder.path + "/socat.out") { socat in
            try await waitFor("socat's pty links (socat said: \(socat.output))") {
                access(readerEnd, F_OK) == 0 && access(writerEnd, F_OK) == 0
            }
            let writer = try Self.openRaw(writerEnd)
            defer { close(writer) }
            // The source opens a link of our own, removed before socat stops, so that its
            // retries cannot reach a pty that the kernel hands to another test meanwhile.
            let sourcePath = folder.path + "/gps0"
            guard let device = realpath(readerEnd, nil) else { throw POSIXError(errno, "realpath \(readerEnd)") }
            defer { free(device) }
            guard symlink(device, sourcePath) == 0 else { throw POSIXError(errno, "symlink \(sourcePath)") }
            let source = SerialSource(path: sourcePath, baud: .b115200, options: SerialSourceTests.options)
            try await withRecorder(source.events()) { recorder in
                try await recorder.waitUntil("the device to open") { $0.statuses.contains(where: \.isConnected) }
                let firstHalf = try await feed.send(pausingFor: recorder) { try await writeAll($0, to: writer) }

                unlink(sourcePath)
                await socat.stop()
                try await recorder.waitUntil("a disconnect and a retry after socat exited") { events in
                    let statuses = events.statuses
                    guard let lost = statuses.firstIndex(where: \.isDisconnected) else { return false }
                    return statuses[lost...].contains { $0.retryDelay != nil }
                }

                let received = recorder.bytes
                #expect(
                    received == feed.bytes,
                    "the bytes read differ from the bytes written (\(received.count) vs \(feed.bytes.count))")
                #expect(PacedNMEA.sentencesInOrder(feed.sentences, in: received) == feed.sentences.count)
                #expect(PacedNMEA.silenceAfter(bytes: firstHalf, in: recorder.events), "no silence warning in the pause")
            }
        }
    }

    /// Opens the writer's end of the pair, non-blocking, in raw mode (no
    /// output processing that would turn LF into CR LF).
    static func openRaw(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(errno, "open \(path)") }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw POSIXError(errno, "tcgetattr \(path)") }
        cfmakeraw(&settings)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else { throw POSIXError(errno, "tcsetattr \(path)") }
        return descriptor
    }
}
