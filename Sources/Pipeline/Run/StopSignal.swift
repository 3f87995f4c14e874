import Dispatch
import Foundation

/// Ctrl-C, SIGTERM and SIGHUP (the terminal or the ssh session closed) as
/// a request to stop: `onStop` runs once (a live run ends, flushes and
/// exits 0); a second signal ends the process at once with status 130.
public final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false
    private var sources: [any DispatchSourceSignal] = []
    private let onStop: @Sendable () -> Void

    /// Listens for SIGINT, SIGTERM and SIGHUP until ``release()``.
    public init(onStop: @escaping @Sendable () -> Void) {
        self.onStop = onStop
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request(number) }
            source.resume()
            sources.append(source)
        }
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
        Console.write("repeat-sim: stopping (signal \(number)); a second one ends at once")
        onStop()
    }
}
