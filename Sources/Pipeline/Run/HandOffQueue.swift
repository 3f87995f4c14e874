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
        waitWhileEmptyAndOpen()
        return takeFirst()
    }

    /// ``pop()``, calling `whileWaiting` (with the queue unlocked) once
    /// nothing has come for `patience` seconds.
    func pop(patience: TimeInterval, whileWaiting: () -> Void) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: patience)
        while isEmptyAndOpen {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                whileWaiting()
                condition.lock()
                waitWhileEmptyAndOpen()
                break
            }
        }
        return takeFirst()
    }

    /// Whether a consumer has to wait: nothing queued, and more may come.
    private var isEmptyAndOpen: Bool { items.isEmpty && !finished && !cancelled }

    /// Waits, with `condition` locked, until an item, the end or a cancel.
    private func waitWhileEmptyAndOpen() {
        while isEmptyAndOpen { condition.wait() }
    }

    /// Takes the first item, with `condition` locked, and wakes a producer
    /// waiting for room; `nil` when there is none (the end, or cancelled).
    private func takeFirst() -> Element? {
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }
}
