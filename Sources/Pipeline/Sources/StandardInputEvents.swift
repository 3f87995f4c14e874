import Foundation

/// Standard input as a live source: its bytes as events, read on a thread
/// of their own so that a blocking read never holds one of the cooperative
/// pool's threads. The stream ends at end of input.
public func standardInputEvents() -> AsyncThrowingStream<LiveSourceEvent, any Error> {
    AsyncThrowingStream { continuation in
        let reader = Thread {
            do {
                try FileByteReader(path: "-").forEachChunk { chunk in continuation.yield(.bytes(Array(chunk))) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        reader.start()
    }
}
