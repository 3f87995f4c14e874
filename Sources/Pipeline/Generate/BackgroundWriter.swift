import Foundation

/// Writes a file's buffers on a thread of its own, so that `generate`
/// encodes the next half megabyte while the kernel copies the last one
/// (which takes about half as long as encoding it).
///
/// Buffers are written in the order given, through a ``HashedFileWriter``
/// (counted, hashed when asked). A few buffers go round: each written one
/// comes back empty to be filled again, so memory stays the same whatever
/// the file's length. A failed write is thrown by the next call, and
/// nothing is written after it.
///
/// ```swift
/// let writer = BackgroundWriter(try HashedFileWriter(path: path, hashing: false))
/// var bytes: [UInt8] = []
/// for record in records {
///     encode(record, into: &bytes)
///     if bytes.count >= 1 << 19 { try writer.write(&bytes) }
/// }
/// try writer.write(&bytes)
/// try writer.finish()
/// ```
package final class BackgroundWriter {
    /// The file; use it (``HashedFileWriter/byteCount``, ``HashedFileWriter/close()``)
    /// once ``finish()`` has returned: the thread writes to it before.
    package let file: HashedFileWriter
    private let pending: HandOffQueue<[UInt8]>
    private let emptied: HandOffQueue<[UInt8]>
    private let failure = FirstFailure()
    private let stopped = DispatchSemaphore(value: 0)
    /// How many buffers go round: `depth` waiting, one being written, one being filled.
    private let bufferLimit: Int
    private var buffers = 1

    /// Starts the thread that writes to `file`, with at most `depth` buffers waiting.
    package init(_ file: HashedFileWriter, depth: Int = 2) {
        precondition(depth > 0, "a background writer needs room for one buffer")
        self.file = file
        bufferLimit = depth + 2
        pending = HandOffQueue(depth: depth)
        emptied = HandOffQueue(depth: bufferLimit)  // never full, so the thread never waits on it
        // The thread is the only user of `file` until `finish()` has seen it stop.
        nonisolated(unsafe) let file = file
        Thread { [pending, emptied, failure, stopped] in
            while var buffer = pending.pop() {
                if !failure.happened {
                    do { try file.write(buffer) } catch { failure.record(error) }
                }
                buffer.removeAll(keepingCapacity: true)
                _ = emptied.push(buffer)
            }
            stopped.signal()
        }.start()
    }

    /// Stops the thread if ``finish()`` was not called (the caller failed).
    deinit { pending.cancel() }

    /// Hands the bytes of `buffer` over to be written and leaves it empty,
    /// to be filled again; waits while all the buffers are in use.
    /// - Throws: ``RunError/writeFailed(_:_:)`` of an earlier buffer.
    package func write(_ buffer: inout [UInt8]) throws {
        try failure.rethrow()
        var next: [UInt8]
        if buffers < bufferLimit {
            buffers += 1
            next = []
            next.reserveCapacity(buffer.capacity)
        } else {
            next = emptied.pop() ?? []
        }
        swap(&buffer, &next)
        _ = pending.push(next)
    }

    /// Waits until every buffer handed over is written; call it once.
    /// - Throws: ``RunError/writeFailed(_:_:)`` of the first write that failed.
    package func finish() throws {
        pending.finish()
        stopped.wait()
        try failure.rethrow()
    }
}

/// The first error of a thread's work, kept for another thread to throw.
private final class FirstFailure: @unchecked Sendable {
    // `error` is read and written with `lock` held.
    private let lock = NSLock()
    private var error: (any Error)?

    var happened: Bool { lock.withLock { error != nil } }

    func record(_ error: any Error) {
        lock.withLock { self.error = self.error ?? error }
    }

    func rethrow() throws {
        if let error = lock.withLock({ error }) { throw error }
    }
}
