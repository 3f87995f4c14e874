import Foundation
import Synchronization

/// What a finished process printed and how it exited.
public struct CommandResult: Sendable {
    /// Standard output as text.
    public var stdout: String
    /// Standard error as text.
    public var stderr: String
    /// The exit status.
    public var status: Int32

    /// Standard output split into lines, without the trailing empty one.
    public var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs the built `repeat-sim` binary, as scripts outside the project do.
public enum RepeatSimBinary {
    /// The binary: `REPEAT_SIM_BINARY` if set, else `repeat-sim` beside the
    /// running test bundle (`swift test` builds both into one folder).
    public static var path: String {
        if let override = environment("REPEAT_SIM_BINARY") { return override }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // The runner may sit inside an .xctest bundle folder.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("repeat-sim").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return RepositoryPaths.root + "/.build/debug/repeat-sim"
    }

    /// Runs `repeat-sim` with `arguments`, feeding `input` on standard input.
    ///
    /// `environment` entries are added to (or replace) the test's own.
    public static func run(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]
    ) throws -> CommandResult {
        try runProcess(path, arguments, input: Array((input ?? "").utf8), environment: extra)
    }

    /// Runs `repeat-sim` with `arguments`, feeding `input` bytes on standard input.
    public static func run(_ arguments: [String], input: [UInt8]) throws -> CommandResult {
        try runProcess(path, arguments, input: input)
    }
}

/// Runs an executable to completion and captures its output.
///
/// Both output pipes are drained on their own threads while the input is
/// written, so neither side can block the other however much it prints.
public func runProcess(
    _ executable: String, _ arguments: [String], input: [UInt8] = [], environment extra: [String: String] = [:]
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let stdout = Pipe.closedOnExec(), stderr = Pipe.closedOnExec(), stdin = Pipe.closedOnExec()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    let outputData = LockedData(), errorData = LockedData()
    let drained = DispatchGroup()
    for (pipe, buffer) in [(stdout, outputData), (stderr, errorData)] {
        drained.enter()
        DispatchQueue.global().async {
            buffer.set(pipe.fileHandleForReading.readDataToEndOfFile())
            drained.leave()
        }
    }
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    drained.wait()
    process.waitUntilExit()
    return CommandResult(
        stdout: String(decoding: outputData.get(), as: UTF8.self), stderr: String(decoding: errorData.get(), as: UTF8.self),
        status: process.terminationStatus)
}

/// A lock-protected byte buffer filled from another thread.
public final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    /// An empty buffer.
    public init() {}

    /// Marks the end of what is appended: its writer closed the stream.
    public func end() { lock.withLock { ended = true } }
    /// Whether ``end()`` was called.
    public var isEnded: Bool { lock.withLock { ended } }

    /// Replaces the contents.
    public func set(_ value: Data) { lock.withLock { data = value } }
    /// Appends bytes.
    public func append(_ value: Data) { lock.withLock { data.append(value) } }
    /// The contents so far.
    public func get() -> Data { lock.withLock { data } }
}

/// A fresh temporary directory for one test, removed with everything in
/// it when the test process exits (kept when `REPEAT_KEEP_TEMP` is set, to
/// look at what a failing test wrote).
public func temporaryDirectory(_ label: String = "repeat") -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    TemporaryDirectories.record(path)
    return path
}

/// The directories ``temporaryDirectory(_:)`` made, removed at exit.
private enum TemporaryDirectories {
    private static let paths: Mutex<[String]?> = Mutex(nil)

    static func record(_ path: String) {
        paths.withLock { paths in
            if paths == nil {
                paths = []
                if ProcessInfo.processInfo.environment["REPEAT_KEEP_TEMP"] == nil { atexit { TemporaryDirectories.removeAll() } }
            }
            paths?.append(path)
        }
    }

    private static func removeAll() {
        for path in paths.withLock({ $0 ?? [] }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
