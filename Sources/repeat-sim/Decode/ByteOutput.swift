#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte buffer in front of a file descriptor (stdout or stderr): the
/// command writes whole chunks' worth of lines with one write(2).
struct ByteOutput {
    let descriptor: Int32
    var bytes: [UInt8] = []
    var flushThreshold = 1 << 16

    static var standardOutput: ByteOutput { ByteOutput(descriptor: STDOUT_FILENO) }
    static var standardError: ByteOutput { ByteOutput(descriptor: STDERR_FILENO) }

    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes.reserveCapacity(1 << 17)
    }

    /// Appends text.
    mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= flushThreshold { flush() }
    }

    /// Flushes when the buffer is over the threshold.
    mutating func flushIfFull() {
        if bytes.count >= flushThreshold { flush() }
    }

    /// Writes everything buffered.
    mutating func flush() {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
