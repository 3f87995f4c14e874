import Foundation
import Pipeline
import Testing

/// `generate`'s read-ahead: the same elements in the same order, in
/// bounded batches, and no thread left behind when reading stops early.
@Suite struct BatchedSequenceTests {
    @Test("Every element once, in order, in full batches and a last partial one", arguments: [1, 3, 7, 10, 64])
    func order(batchSize: Int) {
        let batches = Array(BatchedSequence(0..<10, batchSize: batchSize, depth: 2))
        #expect(batches.flatMap { $0 } == Array(0..<10))
        #expect(batches.dropLast().allSatisfy { $0.count == batchSize })
        #expect(batches.last?.count == (10 % batchSize == 0 ? min(batchSize, 10) : 10 % batchSize))
    }

    @Test("An empty sequence gives no batch")
    func empty() {
        #expect(Array(BatchedSequence(0..<0, batchSize: 4)).isEmpty)
    }

    @Test("Dropping the iterator stops the producer of an endless sequence")
    func earlyStop() {
        let stopped = DispatchSemaphore(value: 0)
        var iterator: BatchedSequence<Endless>.Iterator? = BatchedSequence(Endless(stopped: stopped), batchSize: 8).makeIterator()
        #expect(iterator?.next() == Array(0..<8))
        #expect(iterator?.next() == Array(8..<16))
        iterator = nil
        // A liveness check, not a timing: the producer ends long before this.
        #expect(stopped.wait(timeout: .now() + 60) == .success)
    }
}

/// 0, 1, 2, … without end; signals `stopped` when its iterator is released.
private struct Endless: Sequence, @unchecked Sendable {
    // DispatchSemaphore is thread-safe; it is only signalled.
    let stopped: DispatchSemaphore

    final class Iterator: IteratorProtocol {
        private var value = 0
        private let stopped: DispatchSemaphore
        init(stopped: DispatchSemaphore) { self.stopped = stopped }
        deinit { stopped.signal() }
        func next() -> Int? {
            defer { value += 1 }
            return value
        }
    }

    func makeIterator() -> Iterator { Iterator(stopped: stopped) }
}
