import Foundation

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
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws -> CommandResult {
        try runProcess(path, arguments, input: input, environment: extra, currentDirectory: currentDirectory)
    }
}

/// Runs an executable to completion and captures its output.
public func runProcess(
    _ executable: String, _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
    currentDirectory: String? = nil
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Drain stderr on another thread so a chatty child never blocks on a full pipe.
    nonisolated(unsafe) var errorData = Data()
    let errorDrained = DispatchGroup()
    errorDrained.enter()
    DispatchQueue.global().async {
        errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        errorDrained.leave()
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    errorDrained.wait()
    process.waitUntilExit()
    return CommandResult(
        stdout: String(decoding: outputData, as: UTF8.self), stderr: String(decoding: errorData, as: UTF8.self),
        status: process.terminationStatus)
}

/// A fresh temporary directory for one test.
public func temporaryDirectory(_ label: String = "repeat") -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
