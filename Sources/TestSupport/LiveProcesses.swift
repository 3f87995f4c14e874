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
    private let stdout = OutputStream(), stderr = OutputStream()
    private let stdin: Pipe?
    /// Standard output so far.
    public var output: LockedData { stdout.buffer }
    /// Standard error so far.
    public var diagnostics: LockedData { stderr.buffer }

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
        process.standardOutput = stdout.pipe
        process.standardError = stderr.pipe
        try process.run()
        stdout.startReading()
        stderr.startReading()
    }

    /// One output stream of the process, collected as it comes by a thread
    /// of its own that blocks in `read(2)` until the end of the stream.
    ///
    /// Not a `FileHandle.readabilityHandler`: tearing down its dispatch read
    /// source while other tests set theirs up crashes libdispatch's event
    /// loop on Linux now and then (swift-corelibs-libdispatch issue 949), as
    /// it crashed a CI run of this suite. A blocking read registers nothing
    /// with that loop.
    private final class OutputStream: @unchecked Sendable {
        let pipe = Pipe.closedOnExec()
        let buffer = LockedData()
        private let ended = DispatchSemaphore(value: 0)

        /// Starts the reading thread; called once the process runs, so that
        /// the pipe's writing end is the process's alone and its exit ends
        /// the stream.
        func startReading() {
            let thread = Thread { [pipe, buffer, ended] in
                let descriptor = pipe.fileHandleForReading.fileDescriptor
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = read(descriptor, &chunk, chunk.count)
                    if count > 0 {
                        buffer.append(Data(chunk[..<count]))
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                buffer.end()
                ended.signal()
            }
            thread.name = "repeat-sim output reader"
            thread.start()
        }

        /// Waits for the reading thread to reach the end of the stream,
        /// which comes as soon as the process has exited; bounded, so that
        /// a stream some other process holds open fails the test instead
        /// of hanging it.
        func drain() {
            guard !buffer.isEnded else { return }
            _ = ended.wait(timeout: .now() + 30)
        }
    }

    /// Standard output as text.
    public var outputText: String { String(decoding: output.get(), as: UTF8.self) }
    /// Standard error as text.
    public var diagnosticsText: String { String(decoding: diagnostics.get(), as: UTF8.self) }
    /// Whether it is still running. Once it is not, all it wrote is
    /// collected: this waits for the readers to reach the end of it.
    public var isRunning: Bool {
        if process.isRunning { return true }
        stdout.drain()
        stderr.drain()
        return false
    }
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
        stdout.drain()
        stderr.drain()
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
