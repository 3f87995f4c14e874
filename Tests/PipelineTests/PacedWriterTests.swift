import Foundation
import GeoCore
import Pipeline
import Testing

/// The paced writer's schedule, on a clock whose sleeps end at once.
@Suite("Paced writer")
struct PacedWriterTests {
    @Test("chunks go out at feed time / pace, never faster than the baud rate carries them; late and backward chunks go at once")
    func schedule() async throws {
        let clock = SkippingClock()
        // 9600 baud is 960 bytes a second: 96 bytes take 0.1 s.
        var writer = PacedWriter(pace: 2, baudRate: 9600, clock: clock)
        let chunks: [(feedSeconds: Int64, bytes: Int)] = [(0, 96), (1, 96), (1, 96), (10, 1), (9, 1)]
        var written: [(at: Double, bytes: Int)] = []
        for chunk in chunks {
            try await writer.write(
                [UInt8](repeating: 0x24, count: chunk.bytes), at: Timestamp(nanoseconds: chunk.feedSeconds * 1_000_000_000)
            ) { bytes in
                written.append((clock.now.offset / .seconds(1), bytes.count))
            }
        }
        #expect(written.map(\.bytes) == chunks.map(\.bytes))
        let expected = [
            0,  // the first chunk at once
            0.5,  // 1 s of feed at pace 2
            0.6,  // same feed time, after the 0.1 s the line needs for the previous chunk
            5,  // 10 s of feed at pace 2
            5 + 10 / 9600.0,  // a second earlier in the feed: after the previous byte
        ]
        for (time, want) in zip(written.map(\.at), expected) {
            #expect(abs(time - want) < 1e-9, "written at \(time) s, due at \(want) s")
        }
    }
}

/// A clock whose sleeps return at once, moving its time to the deadline.
final class SkippingClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        lock.withLock { current = max(current, deadline) }
    }
}
