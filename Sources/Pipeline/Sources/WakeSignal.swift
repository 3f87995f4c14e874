import Foundation
import Glibc

/// A one-shot cancellation signal that a reader thread can `poll` beside its
/// device or socket: a self-pipe whose read end becomes readable on cancel.
///
/// ``cancel()`` may be called from any thread, any number of times, also
/// after ``close()``; everything else belongs to the reader thread.
final class WakeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var readEnd: Int32
    private var writeEnd: Int32
    private var closed = false

    /// A fresh, uncancelled signal.
    init() throws(LiveSourceError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .system(endpoint: "live source", operation: "pipe", errno: errno)
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// The descriptor to poll for `POLLIN`: readable once cancelled.
    var descriptor: Int32 { readEnd }

    /// Wakes the reader and makes ``isCancelled`` true for good.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { waitForCancellation(timeout: .zero) }

    /// Sleeps up to `timeout` and returns early, with `true`, when cancelled.
    func waitForCancellation(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let remaining = deadline - ContinuousClock.now
            let result = poll(&entry, 1, remaining.pollMilliseconds)
            if result > 0 { return true }
            if result == 0 && ContinuousClock.now >= deadline { return false }
            if result < 0 && errno != EINTR { return false }
        }
    }

    /// Closes both ends; later ``cancel()`` calls do nothing.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
