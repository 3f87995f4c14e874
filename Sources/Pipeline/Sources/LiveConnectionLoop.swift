import Foundation
import Glibc

/// How a live source reaches its endpoint; the loop does the rest.
protocol LiveConnector: Sendable {
    /// The endpoint as reports name it: a device path or gpsd's `host:port`.
    var endpoint: String { get }
    /// The reason reported when a read returns end-of-file.
    var endOfStreamReason: String { get }
    /// Opens a non-blocking descriptor to read from, or returns `nil` when
    /// `wake` was cancelled meanwhile. Runs on the loop's own thread.
    func open(wake: WakeSignal, options: LiveSourceOptions) throws(LiveSourceError) -> Int32?
    /// A watch on each connection's first bytes for the report that none of
    /// them is a sentence, or `nil` (gpsd, which speaks its own JSON).
    func lineSpeedCheck() -> LineSpeedCheck?
}

extension LiveConnector {
    func lineSpeedCheck() -> LineSpeedCheck? { nil }
}

/// The reader thread behind every live source: connect, read, report, reconnect.
///
/// It runs on a dedicated `Thread`, never on Swift's cooperative pool, and
/// waits in `poll(2)` on two descriptors: the device or socket and a
/// ``WakeSignal``. The stream's `onTermination` (the consuming task was
/// cancelled, or the consumer stopped iterating) fires the signal; the
/// thread then closes the descriptor, which releases the device's locks, and
/// ends. After a lost connection or a failed open it waits out the
/// ``BackoffPolicy`` delay (also in `poll`, so cancellation stays
/// immediate), then tries again; a connection that delivers bytes resets the
/// backoff. The poll timeout doubles as the ``SilenceMonitor``'s timer.
final class LiveConnectionLoop: @unchecked Sendable {
    /// The stream type every live source returns.
    typealias Events = AsyncThrowingStream<LiveSourceEvent, any Error>

    private let connector: any LiveConnector
    private let options: LiveSourceOptions
    private let wake: WakeSignal
    private let continuation: Events.Continuation
    // The fields below are touched only by the loop's thread.
    private var backoff: Backoff
    private var droppedBytes = 0

    private init(connector: any LiveConnector, options: LiveSourceOptions, wake: WakeSignal, continuation: Events.Continuation) {
        self.connector = connector
        self.options = options
        self.wake = wake
        self.continuation = continuation
        self.backoff = Backoff(policy: options.backoff)
    }

    /// Starts a reader thread for `connector` and returns its events.
    static func start(connector: any LiveConnector, options: LiveSourceOptions, threadName: String) -> Events {
        let (stream, continuation) = Events.makeStream(bufferingPolicy: .bufferingOldest(options.bufferedEventLimit))
        let wake: WakeSignal
        do {
            wake = try WakeSignal()
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        continuation.onTermination = { _ in wake.cancel() }
        let loop = LiveConnectionLoop(connector: connector, options: options, wake: wake, continuation: continuation)
        let thread = Thread { loop.run() }
        thread.name = threadName
        thread.start()
        return stream
    }

    private enum Outcome {
        case cancelled
        case lost(reason: String)
    }

    private func run() {
        defer { wake.close() }
        while !wake.isCancelled {
            let descriptor: Int32
            do {
                guard let opened = try connector.open(wake: wake, options: options) else { break }
                descriptor = opened
            } catch {
                if error.isPermanent {
                    continuation.finish(throwing: error)
                    return
                }
                guard waitBeforeRetry(reason: error.reason) else { return }
                continue
            }
            report(.connected(endpoint: connector.endpoint))
            let outcome = pump(descriptor)
            _ = Glibc.close(descriptor)
            guard case .lost(let reason) = outcome else { break }
            report(.disconnected(endpoint: connector.endpoint, reason: reason))
            guard waitBeforeRetry(reason: reason) else { return }
        }
        continuation.finish()
    }

    /// Counts a failure, reports the wait and sleeps it; returns `false`
    /// (having finished the stream) when cancelled or out of attempts.
    private func waitBeforeRetry(reason: String) -> Bool {
        let delay = backoff.recordFailure()
        let failures = backoff.consecutiveFailures
        if let limit = options.maximumConsecutiveFailures, failures >= limit {
            continuation.finish(
                throwing: LiveSourceError.gaveUp(endpoint: connector.endpoint, attempts: failures, lastReason: reason))
            return false
        }
        report(.retrying(endpoint: connector.endpoint, failures: failures, delay: delay, reason: reason))
        if wake.waitForCancellation(timeout: delay) {
            continuation.finish()
            return false
        }
        return true
    }

    /// Reads until the connection is lost or the loop is cancelled.
    private func pump(_ descriptor: Int32) -> Outcome {
        var silence = options.silenceThreshold.map { SilenceMonitor(threshold: $0, start: .now) }
        var lineCheck = options.watchesForSentences ? connector.lineSpeedCheck() : nil
        var buffer = [UInt8](repeating: 0, count: options.readChunkSize)
        var entries = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let timeout = silence.map { ($0.nextWarning - .now).pollMilliseconds } ?? -1
            entries[0].revents = 0
            entries[1].revents = 0
            if poll(&entries, 2, timeout) < 0 {
                if errno == EINTR { continue }
                return .lost(reason: "poll: \(LiveSourceError.message(for: errno))")
            }
            if entries[1].revents != 0 { return .cancelled }
            let events = Int32(entries[0].revents)
            if events & Int32(POLLNVAL) != 0 { return .lost(reason: "the descriptor became invalid") }
            if events & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    backoff.recordSuccess()
                    silence?.noteActivity(at: .now)
                    let chunk = Array(buffer[..<count])
                    guard deliver(chunk) else { return .cancelled }
                    if lineCheck?.take(chunk) == true, let check = lineCheck {
                        report(.noSentence(endpoint: connector.endpoint, bytes: check.bytesSeen, baud: check.baud))
                    }
                    continue
                }
                if count == 0 { return .lost(reason: connector.endOfStreamReason) }
                let code = errno
                guard code == EAGAIN || code == EINTR else { return .lost(reason: LiveSourceError.message(for: code)) }
                if events & Int32(POLLHUP | POLLERR) != 0 { return .lost(reason: "hang-up") }
                continue
            }
            if let quiet = silence?.warningDue(at: .now) {
                report(.silent(endpoint: connector.endpoint, duration: quiet))
            }
        }
    }

    /// Hands a chunk to the consumer; returns `false` when nobody listens any more.
    ///
    /// A full buffer drops the chunk and counts it; the count is reported as
    /// an overrun just before the next chunk that fits, where the gap is.
    private func deliver(_ chunk: [UInt8]) -> Bool {
        if droppedBytes > 0 {
            switch continuation.yield(.status(.overrun(endpoint: connector.endpoint, droppedBytes: droppedBytes))) {
            case .enqueued: droppedBytes = 0
            case .dropped:
                droppedBytes += chunk.count
                return true
            case .terminated: return false
            @unknown default: return false
            }
        }
        switch continuation.yield(.bytes(chunk)) {
        case .enqueued: return true
        case .dropped:
            droppedBytes += chunk.count
            return true
        case .terminated: return false
        @unknown default: return false
        }
    }

    private func report(_ status: LiveSourceStatus) {
        _ = continuation.yield(.status(status))
    }
}
