import GeoCore

/// Hands a feed's bytes on at the feed's own pace, and no faster than a
/// serial line of a given baud rate would carry them.
///
/// Each chunk (an epoch's sentences, say) comes with the feed time it
/// belongs to. The first chunk goes at once; a later one when its time
/// since the first, divided by ``pace``, has passed on the clock, and not
/// before the line has carried the chunks before it at `baudRate / 10`
/// bytes a second (8N1: ten bits a byte). A writer that falls behind skips
/// nothing: it writes as soon as it can. Feed times that go backwards
/// (reordered delivery) are written at once.
///
/// ```swift
/// var writer = PacedWriter(pace: 1, baudRate: 4800)
/// for (time, sentences) in epochs {
///     try await writer.write(sentences, at: time) { try await terminal.write($0) }
/// }
/// ```
public struct PacedWriter<C: Clock> where C.Duration == Duration {
    /// Feed seconds per clock second: 1 is real time, 10 ten times faster.
    public let pace: Double
    /// The serial line's speed in bits per second.
    public let baudRate: Int
    private let clock: C
    /// The first chunk's feed time and when it was due.
    private var origin: (feedTime: Timestamp, due: C.Instant)?
    /// When the line has carried everything handed on so far.
    private var lineFreeAt: C.Instant?

    /// Creates a writer on `clock`; `pace` and `baudRate` must be positive.
    public init(pace: Double, baudRate: Int, clock: C) {
        precondition(pace > 0 && pace.isFinite, "the pace must be a positive number")
        precondition(baudRate > 0, "the baud rate must be positive")
        self.pace = pace
        self.baudRate = baudRate
        self.clock = clock
    }

    /// Waits until `bytes` are due, then hands them to `output`.
    public mutating func write(
        _ bytes: [UInt8], at feedTime: Timestamp, to output: ([UInt8]) async throws -> Void
    ) async throws {
        let origin = self.origin ?? (feedTime, clock.now)
        self.origin = origin
        // Clamped to 292 years: a feed's times may lie further apart.
        let sinceOrigin = Duration.nanoseconds(Int64(min(max(0, feedTime.nanoseconds(since: origin.feedTime)), 9.2e18)))
        var due = origin.due.advanced(by: sinceOrigin / pace)
        if let lineFreeAt, lineFreeAt > due { due = lineFreeAt }
        try await clock.sleep(until: due, tolerance: nil)
        try await output(bytes)
        lineFreeAt = due.advanced(by: .seconds(Double(bytes.count) * 10 / Double(baudRate)))
    }
}

extension PacedWriter where C == ContinuousClock {
    /// Creates a writer on the continuous clock.
    public init(pace: Double, baudRate: Int) {
        self.init(pace: pace, baudRate: baudRate, clock: ContinuousClock())
    }
}
