import Foundation

/// `events` with a ``LiveSourceEvent/quiet`` mark after each pause: when
/// nothing has arrived for `pause` since the last bytes, the mark comes once,
/// then not again until more bytes have come.
///
/// A receiver sends an epoch's sentences in one burst; the pause after it
/// is how a live run knows the epoch is complete without waiting for the
/// next one (which never comes when the receiver stops). Works over any
/// source; the marks ride the same stream, so they stay in order with the
/// bytes. Ending the consumer (Ctrl-C) ends the forwarding and the timer.
func quietMarked(
    _ events: AsyncThrowingStream<LiveSourceEvent, any Error>, after pause: Duration
) -> AsyncThrowingStream<LiveSourceEvent, any Error> {
    let (marked, continuation) = AsyncThrowingStream<LiveSourceEvent, any Error>.makeStream()
    let lastBytes = QuietClock()
    let forwarding = Task {
        do {
            for try await event in events {
                // Noted before the event is passed on, so that a mark can
                // only follow the bytes it is about.
                if case .bytes = event { lastBytes.noteBytes() }
                continuation.yield(event)
            }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
    let timer = Task {
        while !Task.isCancelled {
            let wait = lastBytes.untilMarkDue(pause: pause) ?? pause
            try? await Task.sleep(for: wait)
            if lastBytes.takeMark(pause: pause) { continuation.yield(.quiet) }
        }
    }
    continuation.onTermination = { _ in
        forwarding.cancel()
        timer.cancel()
    }
    return marked
}

/// When bytes last came, and whether their pause has been marked.
private final class QuietClock: @unchecked Sendable {
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?
    private var marked = true

    func noteBytes() {
        lock.withLock {
            last = .now
            marked = false
        }
    }

    /// How long until the current pause is due a mark; `nil` when there is none to make.
    func untilMarkDue(pause: Duration) -> Duration? {
        lock.withLock {
            guard let last, !marked else { return nil }
            return max(.zero, last + pause - .now)
        }
    }

    /// Whether a mark is due now (and then it is taken).
    func takeMark(pause: Duration) -> Bool {
        lock.withLock {
            guard let last, !marked, .now - last >= pause else { return false }
            marked = true
            return true
        }
    }
}
