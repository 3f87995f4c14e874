/// What a live source (serial device or gpsd) delivers: bytes in arrival
/// order, interleaved with reports about the connection.
public enum LiveSourceEvent: Sendable, Equatable {
    /// A chunk of input, exactly as read (never empty).
    case bytes([UInt8])
    /// A change in the connection, worth showing to the person running it.
    case status(LiveSourceStatus)
    /// Nothing has arrived for ``LiveFeed/quietAfter`` since the last bytes
    /// (once per pause): what was held waiting for more is complete.
    case quiet
}

/// A report about a live source's connection.
public enum LiveSourceStatus: Sendable, Equatable, CustomStringConvertible {
    /// The device is open (or gpsd accepted the watch) and reading starts.
    case connected(endpoint: String)
    /// The connection ended: the device vanished, hung up or failed, or gpsd closed it.
    case disconnected(endpoint: String, reason: String)
    /// The `failures`-th consecutive attempt failed for `reason`; the next one comes after `delay`.
    case retrying(endpoint: String, failures: Int, delay: Duration, reason: String)
    /// No byte has arrived for `duration`, though the connection is still open.
    case silent(endpoint: String, duration: Duration)
    /// The consumer fell behind and `droppedBytes` bytes were discarded at this point.
    case overrun(endpoint: String, droppedBytes: Int)
    /// The first `bytes` bytes from a serial device at `baud` held no NMEA
    /// sentence (``LineSpeedCheck``): a receiver at another speed, or in a
    /// binary protocol.
    case noSentence(endpoint: String, bytes: Int, baud: Int)

    /// The endpoint the report is about (a device path or gpsd's address).
    public var endpoint: String {
        switch self {
        case .connected(let endpoint), .disconnected(let endpoint, _), .retrying(let endpoint, _, _, _),
            .silent(let endpoint, _), .overrun(let endpoint, _), .noSentence(let endpoint, _, _):
            return endpoint
        }
    }

    /// One line for a person, e.g. `retrying /dev/ttyUSB0 in 2 s (3 failures in a row): open: No such file or directory`.
    public var description: String {
        switch self {
        case .connected(let endpoint):
            return "connected to \(endpoint)"
        case .disconnected(let endpoint, let reason):
            return "lost \(endpoint): \(reason)"
        case .retrying(let endpoint, let failures, let delay, let reason):
            let count = failures == 1 ? "1 failure" : "\(failures) failures in a row"
            return "retrying \(endpoint) in \(Self.seconds(delay)) (\(count)): \(reason)"
        case .silent(let endpoint, let duration):
            return "no data from \(endpoint) for \(Self.seconds(duration))"
        case .overrun(let endpoint, let droppedBytes):
            return "dropped \(droppedBytes) bytes from \(endpoint): the reader fell behind"
        case .noSentence(let endpoint, let bytes, let baud):
            let others = [4800, 9600, 38400, 115200].filter { $0 != baud }.map { "--baud \($0)" }
            return "no NMEA sentence in the first \(bytes) bytes from \(endpoint) at \(baud) baud: "
                + "is the receiver at another speed (\(others.joined(separator: ", "))), "
                + "or sending a binary protocol (u-blox UBX, SiRF)?"
        }
    }

    /// A duration for a person: whole seconds from 10 s up, one decimal below.
    static func seconds(_ duration: Duration) -> String {
        let value = duration.seconds
        if value >= 10 { return "\(Int(value.rounded())) s" }
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// The duration in whole milliseconds, rounded up and clamped to what `poll` takes.
    var pollMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let milliseconds = (seconds * 1000).rounded(.up)
        return milliseconds >= Double(Int32.max) ? Int32.max : Int32(milliseconds)
    }
}
