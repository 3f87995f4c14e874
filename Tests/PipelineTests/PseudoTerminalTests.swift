import Foundation
import Glibc
import Pipeline
import Testing

/// The pty writer `generate --pty` uses, against a real reader of its link.
@Suite("Pseudo-terminal writer", .serialized)
struct PseudoTerminalTests {
    // The limit stops a test whose reader never opens (the wait for it has
    // no end of its own). Five minutes, not one: in a full run on two cores,
    // the CLI tests, which wait for the binary synchronously, keep both of
    // the concurrency pool's threads busy for minutes, and this test's sleeps
    // resume only when one comes free (in one CI run it ended at 90 s, its
    // only issue the one-minute limit).
    @Test(
        "waits for a reader of the link, which gets the bytes unchanged and is hung up on when the terminal closes",
        .timeLimit(.minutes(5)))
    func readerLifecycle() async throws {
        let folder = try TemporaryFolder(prefix: "repeat-pty")
        defer { folder.remove() }
        let terminal = try PseudoTerminal(linkPath: folder.path + "/gps0")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: terminal.linkPath) == terminal.devicePath)
        #expect(!terminal.hasReader)

        let linkPath = terminal.linkPath
        let opener = Task {
            try await Task.sleep(for: .milliseconds(100))
            return try Self.openRaw(linkPath)
        }
        try await terminal.waitForReader()
        let reader = try await opener.value
        defer { close(reader) }
        #expect(terminal.hasReader)

        let bytes = Array("$GPRMC,1*00\r\n".utf8) + (0...255).map { UInt8($0) }
        try await terminal.write(bytes)
        #expect(try Self.read(bytes.count, from: reader) == bytes)

        terminal.close()
        #expect(access(terminal.linkPath, F_OK) != 0, "the link is removed")
        var byte: UInt8 = 0
        #expect(Glibc.read(reader, &byte, 1) <= 0, "the reader sees a hang-up")
    }

    @Test("a reader that goes away is no longer seen")
    func readerLeaves() throws {
        let folder = try TemporaryFolder(prefix: "repeat-pty")
        defer { folder.remove() }
        let terminal = try PseudoTerminal(linkPath: folder.path + "/gps0")
        let reader = try Self.openRaw(terminal.linkPath)
        #expect(terminal.hasReader)
        close(reader)
        #expect(!terminal.hasReader)
    }

    @Test("a link path that exists is refused, naming it")
    func existingLink() throws {
        let folder = try TemporaryFolder(prefix: "repeat-pty")
        defer { folder.remove() }
        let path = folder.path + "/taken"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let error = #expect(throws: LiveSourceError.self) { try PseudoTerminal(linkPath: path) }
        #expect(error?.description.hasPrefix("\(path): symlink to /dev/pts/") == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("File exists") == true, "\(String(describing: error))")
    }

    /// Opens `path` as a raw terminal, as a serial reader would.
    static func openRaw(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(errno, "open \(path)") }
        var settings = termios()
        tcgetattr(descriptor, &settings)
        cfmakeraw(&settings)
        tcsetattr(descriptor, TCSANOW, &settings)
        return descriptor
    }

    /// Reads `count` bytes, waiting up to 5 s for each.
    static func read(_ count: Int, from descriptor: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.count < count {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5000) == 1 else { throw POSIXError(ETIMEDOUT, "read from the pty") }
            let n = Glibc.read(descriptor, &buffer, buffer.count)
            guard n > 0 else { throw POSIXError(errno, "read from the pty") }
            received += buffer[..<n]
        }
        return received
    }
}
