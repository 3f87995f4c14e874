import Foundation

/// A sequence read ahead on a thread of its own, in batches, through a
/// bounded queue: `generate` simulates on one core while it encodes on
/// another.
///
/// The elements come out in the sequence's order, so the output stays the
/// same bytes; memory holds at most `depth` batches of `batchSize`
/// elements, whatever the sequence's length. Reading stops the producer
/// when the iterator is dropped early (a write failed), so no thread is
/// left running.
///
/// ```swift
/// for batch in BatchedSequence(feed.epochs, batchSize: 1024) {
///     for epoch in batch { … }
/// }
/// ```
package struct BatchedSequence<Base: Sequence & Sendable>: Sequence where Base.Element: Sendable {
    private let base: Base
    private let batchSize: Int
    private let depth: Int

    /// Reads `base` ahead in batches of `batchSize`, at most `depth` batches ahead.
    package init(_ base: Base, batchSize: Int, depth: Int = 4) {
        precondition(batchSize > 0 && depth > 0, "a batch queue needs room for one batch")
        self.base = base
        self.batchSize = batchSize
        self.depth = depth
    }

    /// Starts the producer thread.
    package func makeIterator() -> Iterator { Iterator(self) }

    /// The batches, as the producer hands them over; stops the producer when dropped.
    package final class Iterator: IteratorProtocol {
        private let queue: HandOffQueue<[Base.Element]>

        fileprivate init(_ sequence: BatchedSequence) {
            let queue = HandOffQueue<[Base.Element]>(depth: sequence.depth)
            self.queue = queue
            let (base, batchSize) = (sequence.base, sequence.batchSize)
            Thread {
                var batch: [Base.Element] = []
                batch.reserveCapacity(batchSize)
                for element in base {
                    batch.append(element)
                    guard batch.count == batchSize else { continue }
                    guard queue.push(batch) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
                if !batch.isEmpty { _ = queue.push(batch) }
                queue.finish()
            }.start()
        }

        deinit { queue.cancel() }

        /// The next batch, waiting for the producer; `nil` after the last.
        package func next() -> [Base.Element]? { queue.pop() }
    }
}
