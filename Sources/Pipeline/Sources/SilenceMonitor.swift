/// Decides when a live source has been quiet long enough to warn about it.
///
/// The first warning comes `threshold` after the last byte (or after the
/// connection opened), then one more every further `threshold` while the
/// silence lasts: with a 10 s threshold, "silent for 10 s", "20 s", "30 s"…
/// Any data ends the silence and restarts the count. The monitor reads no
/// clock: the caller passes the instants, so it is tested without waiting.
public struct SilenceMonitor: Sendable {
    /// The silence that earns the first warning, and the spacing of the next ones.
    public let threshold: Duration
    /// When data last arrived (or the connection opened).
    public private(set) var lastActivity: ContinuousClock.Instant
    /// When the next warning is due.
    public private(set) var nextWarning: ContinuousClock.Instant

    /// A monitor whose silence starts at `start`; `threshold` must be positive.
    public init(threshold: Duration, start: ContinuousClock.Instant) {
        precondition(threshold > .zero, "the silence threshold must be positive")
        self.threshold = threshold
        self.lastActivity = start
        self.nextWarning = start + threshold
    }

    /// Records that data arrived at `instant`.
    public mutating func noteActivity(at instant: ContinuousClock.Instant) {
        lastActivity = instant
        nextWarning = instant + threshold
    }

    /// Returns how long the source has been silent when a warning is due at
    /// `instant` (and schedules the next one), or `nil` when none is due.
    public mutating func warningDue(at instant: ContinuousClock.Instant) -> Duration? {
        guard instant >= nextWarning else { return nil }
        let silence = instant - lastActivity
        // Skip warnings that a late check missed, so that they never pile up.
        while nextWarning <= instant { nextWarning += threshold }
        return silence
    }
}
