import Glibc

/// Live gpsd reports over TCP: the JSON lines of gpsd's watch protocol.
///
/// ``events()`` connects (non-blocking, within the options' connect timeout,
/// trying every address the host resolves to), sends ``watchCommand``, and
/// streams gpsd's answer as ``LiveSourceEvent/bytes(_:)`` chunks: `VERSION`,
/// `DEVICES` and `WATCH` objects, then `TPV`, `SKY`… one JSON object per
/// line, cut wherever TCP cut them (the gpsd JSON decoder frames the lines).
/// Status reports come between the chunks, as for ``SerialSource``: a gpsd
/// that refuses the connection, is not running yet, or restarts (the socket
/// reaches end-of-file or is reset) is retried with the options' backoff and
/// reported; silence is reported (gpsd sends nothing while no receiver
/// reports); cancelling the consuming task closes the socket.
/// Writes use `MSG_NOSIGNAL`, so a gpsd that went away never raises SIGPIPE.
public struct GPSDSource: Sendable {
    /// The command sent after connecting: JSON reports, no raw NMEA.
    public static let watchCommand = #"?WATCH={"enable":true,"json":true}"# + "\n"

    /// Where gpsd listens.
    public let endpoint: GPSDEndpoint
    /// Reconnection, silence, buffering and connect-timeout settings.
    public let options: LiveSourceOptions

    /// A source for `endpoint`; nothing connects before ``events()``.
    public init(endpoint: GPSDEndpoint, options: LiveSourceOptions = LiveSourceOptions()) {
        self.endpoint = endpoint
        self.options = options
    }

    /// Starts reading on a new thread; iterate the result, cancel the task to stop.
    public func events() -> AsyncThrowingStream<LiveSourceEvent, any Error> {
        LiveConnectionLoop.start(
            connector: GPSDConnector(address: endpoint),
            options: options,
            threadName: "repeat-sim gpsd \(endpoint)"
        )
    }
}

/// Connects to gpsd and starts the watch, for ``LiveConnectionLoop``.
struct GPSDConnector: LiveConnector {
    let address: GPSDEndpoint

    var endpoint: String { "gpsd at \(address)" }
    var endOfStreamReason: String { "gpsd closed the connection" }

    func open(wake: WakeSignal, options: LiveSourceOptions) throws(LiveSourceError) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0 else {
            throw .unresolvedHost(host: address.host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = LiveSourceError.unresolvedHost(host: address.host, reason: "no usable address")
        var cursor = list
        while let info = cursor?.pointee {
            cursor = info.ai_next
            let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let descriptor = socket(info.ai_family, socketType, info.ai_protocol)
            guard descriptor >= 0 else {
                lastError = .system(endpoint: endpoint, operation: "socket", errno: errno)
                continue
            }
            do {
                let deadline = ContinuousClock.now + options.connectTimeout
                guard try connect(descriptor, to: info, deadline: deadline, wake: wake),
                    try send(Array(GPSDSource.watchCommand.utf8), on: descriptor, deadline: deadline, wake: wake)
                else {
                    _ = close(descriptor)
                    return nil
                }
                return descriptor
            } catch {
                _ = close(descriptor)
                lastError = error
            }
        }
        throw lastError
    }

    /// Connects a non-blocking socket; `false` when cancelled meanwhile.
    private func connect(
        _ descriptor: Int32, to info: addrinfo, deadline: ContinuousClock.Instant, wake: WakeSignal
    )
        throws(LiveSourceError) -> Bool
    {
        if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return true }
        guard errno == EINPROGRESS else { throw .system(endpoint: endpoint, operation: "connect", errno: errno) }
        guard try waitUntilWritable(descriptor, deadline: deadline, wake: wake) else { return false }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
            throw .system(endpoint: endpoint, operation: "getsockopt(SO_ERROR)", errno: errno)
        }
        guard code == 0 else { throw .system(endpoint: endpoint, operation: "connect", errno: code) }
        return true
    }

    /// Sends all of `bytes`; `false` when cancelled meanwhile.
    private func send(
        _ bytes: [UInt8], on descriptor: Int32, deadline: ContinuousClock.Instant, wake: WakeSignal
    )
        throws(LiveSourceError) -> Bool
    {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EINTR {
                guard try waitUntilWritable(descriptor, deadline: deadline, wake: wake) else { return false }
            } else {
                throw .system(endpoint: endpoint, operation: "send ?WATCH", errno: errno)
            }
        }
        return true
    }

    /// Polls for writability until `deadline`; `false` when cancelled meanwhile.
    private func waitUntilWritable(
        _ descriptor: Int32, deadline: ContinuousClock.Instant, wake: WakeSignal
    )
        throws(LiveSourceError) -> Bool
    {
        var entries = [
            pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .connectTimedOut(endpoint: endpoint) }
            entries[0].revents = 0
            entries[1].revents = 0
            let ready = poll(&entries, 2, remaining.pollMilliseconds)
            if ready < 0 && errno != EINTR { throw .system(endpoint: endpoint, operation: "poll", errno: errno) }
            if entries[1].revents != 0 { return false }
            if entries[0].revents != 0 { return true }
        }
    }
}
