import Foundation
import Pipeline
import Testing

/// Consumes a live source's events on a task and lets tests wait, with a
/// deadline, until what they expect has arrived.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [LiveSourceEvent] = []
    private var ending: Result<Void, any Error>?
    private var consumer: Task<Void, Never>?

    /// Starts consuming `stream`.
    init(_ stream: AsyncThrowingStream<LiveSourceEvent, any Error>) {
        consumer = Task { [weak self] in
            do {
                for try await event in stream { self?.append(event) }
                self?.end(.success(()))
            } catch {
                self?.end(.failure(error))
            }
        }
    }

    private func append(_ event: LiveSourceEvent) {
        lock.withLock { recorded.append(event) }
    }

    private func end(_ result: Result<Void, any Error>) {
        lock.withLock { ending = result }
    }

    /// Everything received so far.
    var events: [LiveSourceEvent] { lock.withLock { recorded } }

    /// How the stream ended, or `nil` while it runs.
    var endOfStream: Result<Void, any Error>? { lock.withLock { ending } }

    /// All the bytes received so far, in order.
    var bytes: [UInt8] { events.flatMap { event -> [UInt8] in if case .bytes(let chunk) = event { chunk } else { [] } } }

    /// The status reports received so far.
    var statuses: [LiveSourceStatus] { events.compactMap { if case .status(let status) = $0 { status } else { nil } } }

    /// Waits until `condition` holds for the events, failing with `what` after `timeout`.
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: ([LiveSourceEvent]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(events) {
            guard ContinuousClock.now < deadline else {
                let seen = statuses.map(\.description).joined(separator: "\n  ")
                Issue.record(
                    "timed out after \(timeout) waiting for \(what); \(bytes.count) bytes received; statuses:\n  \(seen)",
                    sourceLocation: sourceLocation)
                throw TimedOut()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until the stream has ended, failing after `timeout`.
    func waitForEnd(
        timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result<Void, any Error> {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let ending = endOfStream { return ending }
            guard ContinuousClock.now < deadline else {
                Issue.record("the live source's stream did not end within \(timeout)", sourceLocation: sourceLocation)
                throw TimedOut()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Cancels the consumer (as Ctrl-C does) and waits for it to return.
    func stop() async {
        consumer?.cancel()
        await consumer?.value
    }

    /// Thrown after a recorded timeout, to end the test.
    struct TimedOut: Error {}
}

extension LiveSourceStatus {
    /// Whether this is a `connected` report.
    var isConnected: Bool { if case .connected = self { true } else { false } }
    /// Whether this is a `disconnected` report.
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
    /// Whether this is a `silent` report.
    var isSilent: Bool { if case .silent = self { true } else { false } }
    /// The delay of a `retrying` report.
    var retryDelay: Duration? { if case .retrying(_, _, let delay, _) = self { delay } else { nil } }
}

extension [LiveSourceEvent] {
    /// The status reports, in order.
    var statuses: [LiveSourceStatus] { compactMap { if case .status(let status) = $0 { status } else { nil } } }
    /// How many bytes arrived in total.
    var byteCount: Int { reduce(0) { count, event in if case .bytes(let chunk) = event { count + chunk.count } else { count } } }
}

/// Runs `body` with a recorder of `stream`, and cancels the consumer however `body` ends.
func withRecorder<Result>(
    _ stream: AsyncThrowingStream<LiveSourceEvent, any Error>, _ body: (EventRecorder) async throws -> Result
) async throws -> Result {
    let recorder = EventRecorder(stream)
    do {
        let result = try await body(recorder)
        await recorder.stop()
        return result
    } catch {
        await recorder.stop()
        throw error
    }
}
