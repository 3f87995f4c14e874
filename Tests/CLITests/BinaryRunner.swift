import Foundation
import TestSupport

/// Runs the built `repeat-sim` (which `swift test` builds) and captures its output.
struct BinaryRunner {
    static let path = RepositoryPaths.root + "/.build/debug/repeat-sim"

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `repeat-sim arguments…` with `input` on stdin.
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errorData = ReadBuffer()
        let outputData = ReadBuffer()
        let group = DispatchGroup()
        for (pipe, buffer) in [(stdout, outputData), (stderr, errorData)] {
            group.enter()
            DispatchQueue.global().async {
                buffer.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData.get(), as: UTF8.self),
            stderr: String(decoding: errorData.get(), as: UTF8.self))
    }
}

/// A lock-protected byte buffer filled from another thread.
final class ReadBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) { lock.withLock { data = value } }
    func append(_ value: Data) { lock.withLock { data.append(value) } }
    func get() -> Data { lock.withLock { data } }
}
