import GeoCore

/// When fixes are sampled and how they reach the reader: the interval, and
/// the artefacts of real receivers and phone uploads (dropouts, tunnels,
/// a cold start, shuffled and repeated deliveries).
///
/// Every value is checked on creation, and a bad one is refused with the
/// flag that set it.
public struct DeliverySettings: Hashable, Sendable {
    /// A tunnel: no fix in [``start``, ``start`` + ``duration``).
    public struct Gap: Hashable, Sendable {
        /// When the gap begins.
        public let start: Timestamp
        /// How long it lasts, in seconds.
        public let duration: Double
        /// The first instant after the gap, in nanoseconds since 1970.
        private let end: Int64

        /// A gap of `duration` seconds from `start` (`--gap START,DURATION`).
        /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming `--gap`
        ///   for a duration that is not positive or longer than 10⁹ s;
        ///   ``SimulationError/pastLatestTime`` for one that would end
        ///   past the last instant a ``Timestamp`` holds.
        public init(start: Timestamp, duration: Double) throws(SimulationError) {
            try checkDuration(duration, "--gap", zeroAllowed: false)
            guard start.nanoseconds <= Int64.max - Int64(duration * 1e9) else { throw .pastLatestTime }
            self.start = start
            self.duration = duration
            self.end = start.adding(seconds: duration).nanoseconds
        }

        /// Whether the instant `nanoseconds` (since 1970) falls in the gap.
        func contains(_ nanoseconds: Int64) -> Bool {
            nanoseconds >= start.nanoseconds && nanoseconds < end
        }
    }

    /// Seconds between samples (`--interval`, default 1).
    public let interval: Double
    /// Where the sampling grid is anchored (`--start`): samples fall at
    /// start + k · interval, within each device's path. `nil`: each path's
    /// own start.
    public let start: Timestamp?
    /// The chance that a fix is lost (`--dropout`), 0…1, independently per fix.
    public let dropout: Double
    /// Tunnels (`--gap`, repeatable).
    public let gaps: [Gap]
    /// Seconds from a path's start whose fixes are delivered as invalid
    /// epochs (`--cold-start`): the receiver has no fix yet.
    public let coldStart: Double
    /// The most a fix's delivery can be delayed, in seconds (`--reorder`):
    /// no fix arrives this long or longer after one stamped later.
    public let reorder: Double
    /// The chance that a fix is delivered twice, the copy right after the
    /// original (`--duplicates`), 0…1.
    public let duplicates: Double

    /// Settings from their values; the defaults sample every second from
    /// the path's start and deliver every fix once, in order.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming the flag:
    ///   `--interval` not positive (or under a nanosecond), `--dropout` or
    ///   `--duplicates` outside 0…1, `--cold-start` or `--reorder` negative;
    ///   any duration longer than 10⁹ s (31 years).
    public init(
        interval: Double = 1, start: Timestamp? = nil, dropout: Double = 0, gaps: [Gap] = [], coldStart: Double = 0,
        reorder: Double = 0, duplicates: Double = 0
    ) throws(SimulationError) {
        try checkDuration(interval, "--interval", zeroAllowed: false)
        guard (0...1).contains(dropout) else { throw .invalidValue("--dropout", "must be a probability from 0 to 1") }
        try checkDuration(coldStart, "--cold-start", zeroAllowed: true)
        try checkDuration(reorder, "--reorder", zeroAllowed: true)
        guard (0...1).contains(duplicates) else { throw .invalidValue("--duplicates", "must be a probability from 0 to 1") }
        self.interval = interval
        self.start = start
        self.dropout = dropout
        self.gaps = gaps
        self.coldStart = coldStart
        self.reorder = reorder
        self.duplicates = duplicates
    }
}
