import Foundation

/// A piece of a command's setup on a thread of its own, while the command
/// goes on with another (`replay --jobs` above 1 reads its regions while
/// its tasks are read): ``value()`` waits for it.
final class Concurrently<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the thread, read after ``finished`` is signalled.
    private var outcome: Result<Value, any Error>?

    /// Starts `body`.
    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread {
            self.outcome = Result(catching: body)
            self.finished.signal()
        }.start()
    }

    /// What `body` returned, once it has.
    /// - Throws: what `body` threw.
    func value() throws -> Value {
        finished.wait()
        finished.signal()
        return try outcome!.get()
    }
}
