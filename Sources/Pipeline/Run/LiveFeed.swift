import FeedParsing

/// A live source as a run reads it: a serial receiver, gpsd or standard
/// input, until it ends or the run's task is cancelled (Ctrl-C).
public struct LiveFeed {
    /// The name diagnostics and the summary give it.
    public var name: String
    /// The source's bytes and connection changes.
    public var events: AsyncThrowingStream<LiveSourceEvent, any Error>
    /// The format to assume unless the run's settings give one (gpsd
    /// speaks its JSON); `nil` detects it.
    public var format: FeedFormat?
    /// The pause after which what is held waiting for more input is
    /// handed on: the NMEA epoch in progress and the reorder buffer's
    /// fixes (a receiver that stops, or sends only no-fix sentences, must
    /// not keep an arrival's reminder back). 1 s: longer than the gaps
    /// inside an epoch's burst, shorter than a person waits.
    public var quietAfter: Duration = .seconds(1)
    /// Whether a receiver's times whole GPS week-number eras behind the
    /// computer's clock are read that much later (``WeekRollover``): a
    /// serial receiver's, not a recording's on standard input, nor gpsd's,
    /// which corrects them itself.
    public var checksWeekRollover = false

    /// A live feed named `name`.
    public init(name: String, events: AsyncThrowingStream<LiveSourceEvent, any Error>, format: FeedFormat?) {
        self.name = name
        self.events = events
        self.format = format
    }
}
