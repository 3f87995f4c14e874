import Glibc

/// Why a live source could not open, or why its stream ended.
public enum LiveSourceError: Error, Equatable, CustomStringConvertible {
    /// A system call failed with `errno` while doing `operation` on `endpoint`.
    case system(endpoint: String, operation: String, errno: Int32)
    /// The device would not open, with what a person can do about it
    /// (``SerialPortHint``).
    case cannotOpen(path: String, errno: Int32, hint: String?)
    /// The path is not a terminal, so it cannot be a serial device (permanent: never retried).
    case notATerminal(path: String)
    /// Another process holds the device open exclusively.
    case busy(path: String)
    /// The host name did not resolve.
    case unresolvedHost(host: String, reason: String)
    /// gpsd did not accept the connection in time.
    case connectTimedOut(endpoint: String)
    /// The source gave up after too many consecutive failures.
    case gaveUp(endpoint: String, attempts: Int, lastReason: String)

    /// Whether retrying cannot help (the stream then ends at once).
    public var isPermanent: Bool {
        if case .notATerminal = self { return true }
        return false
    }

    /// A sentence for a person, naming the endpoint and the cause.
    public var description: String {
        switch self {
        case .system(let endpoint, let operation, let code):
            return "\(endpoint): \(operation) failed: \(Self.message(for: code))"
        case .cannotOpen(let path, _, _):
            return "\(path): \(reason)"
        case .notATerminal(let path):
            return
                "\(path) is not a terminal device; give a serial port such as /dev/ttyUSB0 or /dev/ttyACM0 (files and pipes are read as FEED)"
        case .busy(let path):
            return "\(path) is in use by another process (exclusive lock held)"
        case .unresolvedHost(let host, let reason):
            return "cannot resolve gpsd host '\(host)': \(reason)"
        case .connectTimedOut(let endpoint):
            return "\(endpoint): connection timed out"
        case .gaveUp(let endpoint, let attempts, let lastReason):
            return "gave up on \(endpoint) after \(attempts) failed attempts; last: \(lastReason)"
        }
    }

    /// The reason alone, without the endpoint (for status events that name it already).
    var reason: String {
        switch self {
        case .system(_, let operation, let code): return "\(operation): \(Self.message(for: code))"
        case .cannotOpen(_, let code, let hint): return "open: \(Self.message(for: code))" + (hint.map { "; " + $0 } ?? "")
        case .busy: return "in use by another process"
        case .connectTimedOut: return "connection timed out"
        default: return description
        }
    }

    /// `strerror` for `code`.
    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
