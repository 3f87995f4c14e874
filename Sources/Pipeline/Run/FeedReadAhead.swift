import FeedParsing
import Foundation

/// A feed file decoded on a thread of its own, a few reads ahead of the
/// thread that consumes its batches (`--jobs`).
///
/// The batches come out in the file's order, each with what the decoder
/// knew after it (its format and what it ignored), so that a consumer
/// that stops early (`--strict`) still reports them. Dropping the reader
/// stops the decoding thread.
final class FeedReadAhead {
    /// What the decoding thread hands over.
    enum Message: Sendable {
        /// One read's batch, the bytes read so far and the decoder's state after it.
        case batch(FeedBatch, bytesRead: Int, format: FeedFormat?, ignored: [String: Int])
        /// The file could not be read: the reason.
        case failed(String)
    }

    private let queue = HandOffQueue<Message>(depth: 3)
    /// Where the consumer hands back the fixes of a batch it is done with.
    let spareFixes = FixArrayPool()

    /// Starts decoding `path` (see ``FeedFileDecoding/decode(path:format:options:chunkSize:spool:onRead:onBatch:)``),
    /// through `spool` if given.
    init(path: String, format: FeedFormat?, options: FeedDecodingOptions, spool: FeedSpool? = nil) {
        let (queue, pool) = (self.queue, spareFixes)
        let thread = Thread {
            do {
                var bytesRead = 0
                try FeedFileDecoding.decode(
                    path: path, format: format, options: options, spool: spool, onRead: { bytesRead = $0 }
                ) { batch, decoder in
                    var taken = FeedBatch()
                    swap(&taken, &batch)
                    batch.fixes = pool.take(capacity: taken.fixes.count + taken.fixes.count / 4)
                    return queue.push(
                        .batch(taken, bytesRead: bytesRead, format: decoder.format, ignored: decoder.statistics.ignored))
                }
            } catch {
                _ = queue.push(.failed("\(error)"))
            }
            queue.finish()
        }
        thread.name = "repeat-sim decode"
        thread.start()
    }

    deinit { queue.cancel() }

    /// The next message, waiting for the decoding thread; `nil` after the
    /// last. `whileWaiting` runs once the decoder has kept the caller
    /// waiting ``patience`` seconds: a pipe or a terminal that has nothing
    /// more yet.
    func next(whileWaiting: () -> Void) -> Message? { queue.pop(patience: Self.patience, whileWaiting: whileWaiting) }

    /// How long a wait for the decoder is that of a feed with nothing
    /// more yet: reading and decoding a chunk of a file or of a busy pipe
    /// takes a millisecond or so.
    static let patience: TimeInterval = 0.05
}
