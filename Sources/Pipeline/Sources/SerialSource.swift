/// Live bytes from a serial GPS receiver (`/dev/ttyUSB0`, `/dev/ttyACM0`, a pty).
///
/// ``events()`` opens the device as ``SerialPort`` describes (exclusive,
/// raw, the given speed) on a dedicated reader thread and streams what it
/// reads, in order, as ``LiveSourceEvent/bytes(_:)`` chunks, with status
/// reports between them:
/// - `connected` after each successful open;
/// - `disconnected` when the device goes away: a read that fails with
///   EIO/ENXIO (a USB receiver unplugged), returns end-of-file, or a hang-up;
/// - `retrying` before each wait while the device is missing or busy, with
///   waits that grow by the options' ``BackoffPolicy`` up to its cap (the
///   backoff restarts once a reopened device delivers bytes);
/// - `silent` when no byte came for the silence threshold (the device stays
///   open: a receiver without a fix may simply be quiet);
/// - `overrun` when the consumer fell so far behind that chunks were dropped;
/// - `noSentence` when the first KiB after an open holds no NMEA sentence
///   (``LineSpeedCheck``: a receiver at another speed, or in a binary protocol).
///
/// A path that is not a terminal ends the stream at once with
/// ``LiveSourceError/notATerminal(path:)``; with
/// ``LiveSourceOptions/maximumConsecutiveFailures`` set, too many failures
/// end it with ``LiveSourceError/gaveUp(endpoint:attempts:lastReason:)``.
/// Cancelling the consuming task (Ctrl-C in `live`) ends the stream and
/// closes the device, releasing its locks, within one poll wake-up.
///
/// ```swift
/// for try await event in SerialSource(path: "/dev/ttyUSB0", baud: .b4800).events() {
///     switch event {
///     case .bytes(let chunk): framer.append(chunk)
///     case .status(let status): warn("\(status)")
///     }
/// }
/// ```
public struct SerialSource: Sendable {
    /// The device path.
    public let path: String
    /// The line speed.
    public let baud: SerialBaudRate
    /// Reconnection, silence and buffering settings.
    public let options: LiveSourceOptions

    /// A source for `path` at `baud`; nothing is opened before ``events()``.
    public init(path: String, baud: SerialBaudRate, options: LiveSourceOptions = LiveSourceOptions()) {
        self.path = path
        self.baud = baud
        self.options = options
    }

    /// Starts reading on a new thread; iterate the result, cancel the task to stop.
    public func events() -> AsyncThrowingStream<LiveSourceEvent, any Error> {
        LiveConnectionLoop.start(
            connector: SerialConnector(path: path, baud: baud),
            options: options,
            threadName: "repeat-sim serial \(path)"
        )
    }
}

/// Opens the device for ``LiveConnectionLoop``.
struct SerialConnector: LiveConnector {
    let path: String
    let baud: SerialBaudRate

    var endpoint: String { path }
    var endOfStreamReason: String { "end of file (the device was closed)" }

    func open(wake: WakeSignal, options: LiveSourceOptions) throws(LiveSourceError) -> Int32? {
        try SerialPort.open(path: path, baud: baud)
    }

    func lineSpeedCheck() -> LineSpeedCheck? { LineSpeedCheck(baud: baud.rawValue) }
}
