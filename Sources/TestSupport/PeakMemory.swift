import Foundation

/// A run of the built binary and the most memory it held.
public struct MeasuredRun: Sendable {
    /// What it printed and how it exited.
    public var result: CommandResult
    /// Its peak resident set, in kilobytes.
    public var peakKilobytes: Int
}

extension RepeatSimBinary {
    /// GNU time, which `Scripts/setup.sh` installs.
    public static let timeCommand = "/usr/bin/time"

    /// Runs `repeat-sim` with `arguments` (and `input` through a pipe on its
    /// standard input) under `/usr/bin/time` and reports its peak resident
    /// memory, as `/usr/bin/time -v` does.
    ///
    /// Why not `wait4` on the binary itself: a process started from the
    /// test runner (`posix_spawn` shares the runner's memory until `exec`)
    /// inherits the runner's peak in its `ru_maxrss`; `time` forks the
    /// command from its own small process. Compare the figure with a small
    /// run of the same command, never with a constant: the runtime and the
    /// binary take tens of megabytes of their own.
    public static func runMeasured(_ arguments: [String], input: [UInt8] = []) throws -> MeasuredRun {
        let folder = temporaryDirectory("repeat-measured")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = folder + "/peak"
        let result = try runProcess(timeCommand, ["-f", "%M", "-o", report, path] + arguments, input: input)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        // The last line is the figure; a line before it says how the command ended when it failed.
        guard let peak = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: report]) }
        return MeasuredRun(result: result, peakKilobytes: peak)
    }
}
