/// Settings shared by the live sources: reconnection, silence warnings and buffering.
public struct LiveSourceOptions: Sendable, Equatable {
    /// The waits between reconnection attempts.
    public var backoff: BackoffPolicy
    /// The silence after which a ``LiveSourceStatus/silent(endpoint:duration:)``
    /// warning is reported (repeated every further threshold); `nil` for none.
    public var silenceThreshold: Duration?
    /// After this many consecutive failed attempts the stream ends with
    /// ``LiveSourceError/gaveUp(endpoint:attempts:lastReason:)``; `nil` retries forever.
    public var maximumConsecutiveFailures: Int?
    /// The largest chunk read at once, in bytes.
    public var readChunkSize: Int
    /// How many events may wait for a slow consumer before bytes are dropped
    /// (and reported as ``LiveSourceStatus/overrun(endpoint:droppedBytes:)``).
    public var bufferedEventLimit: Int
    /// How long a TCP connection attempt to gpsd may take.
    public var connectTimeout: Duration
    /// Whether a serial source says when the first KiB after an open holds
    /// no NMEA sentence (``LineSpeedCheck``); off when the device is read as
    /// another format.
    public var watchesForSentences = true

    /// Options with the defaults: backoff 0.5 s × 2 up to 30 s, a warning
    /// after 10 s of silence, endless retries, 4 KiB reads, 1024 buffered events,
    /// a 5 s connect timeout.
    public init(
        backoff: BackoffPolicy = BackoffPolicy(),
        silenceThreshold: Duration? = .seconds(10),
        maximumConsecutiveFailures: Int? = nil,
        readChunkSize: Int = 4096,
        bufferedEventLimit: Int = 1024,
        connectTimeout: Duration = .seconds(5)
    ) {
        precondition(silenceThreshold.map { $0 > .zero } ?? true, "the silence threshold must be positive")
        precondition(maximumConsecutiveFailures.map { $0 >= 1 } ?? true, "allow at least one failure")
        precondition(readChunkSize >= 1 && bufferedEventLimit >= 1 && connectTimeout > .zero)
        self.backoff = backoff
        self.silenceThreshold = silenceThreshold
        self.maximumConsecutiveFailures = maximumConsecutiveFailures
        self.readChunkSize = readChunkSize
        self.bufferedEventLimit = bufferedEventLimit
        self.connectTimeout = connectTimeout
    }
}
