import Dispatch
import Foundation
import Synchronization

/// Ctrl-C, SIGTERM and SIGHUP (the terminal or the ssh session closed) as
/// a request to stop: the first signal runs `takeEffect`, announces the
/// stop on standard error, then runs `onStop` (a live run ends, flushes
/// and exits 0); a second signal ends the process at once with status 130.
public final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false
    private var sources: [any DispatchSourceSignal] = []
    private let takeEffect: @Sendable () -> Void
    private let onStop: @Sendable () -> Void

    /// Listens for SIGINT, SIGTERM and SIGHUP until ``release()``.
    /// `takeEffect` runs before the announcement, so that whoever reads it
    /// may rely on the stop (a run of files reads nothing after it);
    /// `onStop` runs after, so that it comes before anything the stopped
    /// run then says.
    public init(
        takeEffect: @escaping @Sendable () -> Void = {}, onStop: @escaping @Sendable () -> Void = {}
    ) {
        self.takeEffect = takeEffect
        self.onStop = onStop
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `operation` as a task that the first signal cancels. The
    /// signals are caught before the task starts, so one sent as soon as
    /// the task has said something (`waiting for a reader`) is not lost to
    /// the moment before anyone listens.
    public static func cancelling<Success: Sendable>(
        _ operation: sending @escaping () async throws -> Success
    ) async throws -> Success {
        let pending = PendingCancel()
        let stop = StopSignal(onStop: { pending.cancel() })
        defer { stop.release() }
        let task = Task(operation: operation)
        pending.attach { task.cancel() }
        return try await task.value
    }

    /// Stops listening for the signals.
    public func release() {
        for source in sources { source.cancel() }
    }

    private func request(_ number: Int32) {
        let already = lock.withLock { () -> Bool in
            defer { stopRequested = true }
            return stopRequested
        }
        if already { exit(130) }
        takeEffect()
        Console.write("repeat-sim: stopping (signal \(number)); a second one ends at once")
        onStop()
    }
}

/// A request to stop a run that reads files, made by a signal's handler
/// (``StopSignal``) and read by the run between its reads: the run then
/// ends as it would at the end of its feeds, its output whole so far.
public final class StopRequest: Sendable {
    private let requested = Atomic(false)

    /// No stop requested yet.
    public init() {}

    /// Asks the run to stop.
    public func request() { requested.store(true, ordering: .relaxed) }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// A request that Ctrl-C, SIGTERM and SIGHUP make while `body` runs; a
    /// second signal ends the process at once (status 130).
    public static func onSignals<T>(_ body: (StopRequest) throws -> T) rethrows -> T {
        let stop = StopRequest()
        let signals = StopSignal(takeEffect: { stop.request() })
        defer { signals.release() }
        return try body(stop)
    }
}

/// A cancellation that may be asked for before there is a task to cancel:
/// it is then carried out as soon as the task is attached.
private final class PendingCancel: Sendable {
    private enum State {
        case waiting((@Sendable () -> Void)?)
        case cancelled
    }
    private let state = Mutex(State.waiting(nil))

    /// Cancels the attached task, or the one attached next.
    func cancel() {
        let attached = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state = .cancelled }
            if case .waiting(let cancel) = state { return cancel }
            return nil
        }
        attached?()
    }

    /// Attaches the task's `cancel`, calling it at once if a cancel came first.
    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            state = .waiting(cancel)
            return false
        }
        if already { cancel() }
    }
}
