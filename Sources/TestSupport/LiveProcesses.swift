import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A socat pseudo-terminal pair with stable paths, as a USB GPS receiver
/// (`receiver`) and the test's writing end (`sender`); killed on `stop()`.
public final class SocatPair {
    /// The end `repeat-sim` opens as its device.
    public let receiver: String
    /// The end the test writes NMEA to.
    public let sender: String
    private let process = Process()

    /// Starts socat with links in a new temporary folder and waits for them.
    public init(label: String) throws {
        let folder = temporaryDirectory(label)
        receiver = folder + "/gps"
        sender = folder + "/feeder"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") else {
            throw WaitTimeout(what: "/usr/bin/socat (install the apt package socat)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        process.arguments = ["pty,raw,echo=0,link=\(receiver)", "pty,raw,echo=0,link=\(sender)"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntil("socat's pty links") { [receiver, sender] in
            FileManager.default.fileExists(atPath: receiver) && FileManager.default.fileExists(atPath: sender)
        }
    }

    /// Ends socat (SIGKILL: it holds no state worth a clean exit).
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A `repeat-sim` process left running while the test talks to it, its
/// output collected as it comes.
public final class RunningRepeatSim {
    private let process = Process()
    private let stdout = Pipe.closedOnExec(), stderr = Pipe.closedOnExec()
    private let stdin: Pipe?
    /// Standard output so far.
    public let output = LockedData()
    /// Standard error so far.
    public let diagnostics = LockedData()

    /// Starts `repeat-sim arguments…`; with `input`, its standard input is
    /// a pipe that ``write(_:)`` feeds.
    public init(_ arguments: [String], input: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: RepeatSimBinary.path)
        process.arguments = arguments
        stdin = input ? Pipe.closedOnExec() : nil
        if let stdin {
            process.standardInput = stdin
            signal(SIGPIPE, SIG_IGN)  // a write after it died fails instead of ending the test run
        }
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = Self.collector(into: output)
        stderr.fileHandleForReading.readabilityHandler = Self.collector(into: diagnostics)
        try process.run()
    }

    /// A handler that appends what a pipe brings to `buffer`, and ends it
    /// at the end of the stream.
    private static func collector(into buffer: LockedData) -> @Sendable (FileHandle) -> Void {
        { handle in
            let data = handle.availableData
            guard data.isEmpty else { return buffer.append(data) }
            handle.readabilityHandler = nil
            buffer.end()
        }
    }

    /// Standard output as text.
    public var outputText: String { String(decoding: output.get(), as: UTF8.self) }
    /// Standard error as text.
    public var diagnosticsText: String { String(decoding: diagnostics.get(), as: UTF8.self) }
    /// Whether it is still running, or what it wrote is not all collected
    /// yet (the handlers run on threads of their own, and may lag its exit).
    public var isRunning: Bool { process.isRunning || !output.isEnded || !diagnostics.isEnded }
    /// Its exit status, once it has ended.
    public var status: Int32 { process.terminationStatus }

    /// Writes `data` to its standard input (started with `input: true`);
    /// returns false once it has stopped reading.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        guard let stdin else { preconditionFailure("started without input: true") }
        do {
            try stdin.fileHandleForWriting.write(contentsOf: data)
            return true
        } catch {
            return false
        }
    }

    /// Closes its standard input (started with `input: true`): the end of the feed.
    public func closeInput() {
        guard let stdin else { preconditionFailure("started without input: true") }
        try? stdin.fileHandleForWriting.close()
    }

    /// Sends `signal` to it.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Kills it if still running and stops collecting output.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        stdout.fileHandleForReading.readabilityHandler = nil
        stderr.fileHandleForReading.readabilityHandler = nil
    }
}

/// Waits up to `seconds` for `condition`, polling every 20 ms; throws
/// ``WaitTimeout`` naming `what`. A bound on a wait, not a timing assert.
public func waitUntil(_ what: String, seconds: Double = 20, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw WaitTimeout(what: what) }
        usleep(20_000)
    }
}

/// A bounded wait that gave up.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// `gave up waiting for …`.
    public var description: String { "gave up waiting for \(what)" }
}
