#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A byte buffer in front of a file descriptor (stdout or stderr): a run
/// writes a whole batch's lines with one write(2).
///
/// A class, so that the sinks of one run share the one buffer of stdout
/// (the `--exec` hook flushes it before its command writes).
public final class ByteWriter {
    /// The file descriptor written to.
    public let descriptor: Int32
    /// The bytes not yet written. Used by one thread at a time, so not
    /// checked for overlapping access at run time: the check cost some
    /// 80 instructions a line.
    @exclusivity(unchecked) public var bytes: [UInt8] = []
    private let flushThreshold: Int
    /// Whether a flush drops the bytes rather than keeping them when there
    /// is no file descriptor.
    private var discards = false

    /// A buffer in front of standard output.
    public static func standardOutput() -> ByteWriter { ByteWriter(descriptor: STDOUT_FILENO) }

    /// A buffer in front of `descriptor`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        flushThreshold = 1 << 16
        bytes.reserveCapacity(1 << 17)
    }

    /// A buffer in front of nothing, whose ``bytes`` are kept until taken:
    /// text made on another thread, then written to a buffer in order.
    init(keeping capacity: Int) {
        descriptor = -1
        flushThreshold = .max
        bytes.reserveCapacity(capacity)
    }

    /// A buffer in front of nothing that drops what it holds at each flush:
    /// lines made and timed (`bench --shard`), not kept.
    static func discarding() -> ByteWriter {
        let writer = ByteWriter(descriptor: -1)
        writer.discards = true
        return writer
    }

    /// Appends text, writing out once the buffer holds 64 KiB.
    public func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Writes out once the buffer holds 64 KiB.
    @inline(__always)
    public func flushIfFull() {
        if bytes.count >= flushThreshold { flush() }
    }

    /// Writes everything buffered.
    public func flush() {
        guard descriptor >= 0 else {
            if discards { bytes.removeAll(keepingCapacity: true) }
            return
        }
        // A closed pipe or a full disk loses the output, not the run.
        _ = bytes.withUnsafeBytes { writeFully(descriptor, $0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
