import Foundation

/// A bounded first-in first-out hand-over between one producer thread and
/// one consumer, guarded by a condition: batches of a feed read ahead,
/// handed to a worker thread and back.
final class HandOffQueue<Element: Sendable>: @unchecked Sendable {
    // Every stored property is read and written with `condition` locked.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var finished = false
    private var cancelled = false
    private let depth: Int

    init(depth: Int) { self.depth = depth }

    /// Waits for room and appends; `false` when the consumer has gone.
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Marks the end: `pop` returns `nil` once the queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Tells the producer to stop.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for an item; `nil` at the end, or once cancelled.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished && !cancelled { condition.wait() }
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }

    /// ``pop()``, calling `whileWaiting` (with the queue unlocked) once
    /// nothing has come for `patience` seconds.
    func pop(patience: TimeInterval, whileWaiting: () -> Void) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: patience)
        while items.isEmpty && !finished && !cancelled {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                whileWaiting()
                condition.lock()
                while items.isEmpty && !finished && !cancelled { condition.wait() }
                break
            }
        }
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }
}
