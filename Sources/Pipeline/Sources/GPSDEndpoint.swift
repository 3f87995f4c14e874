/// Where a gpsd daemon listens: `--gpsd HOST[:PORT]`.
///
/// Accepted spellings: `localhost`, `gps.local:2948`, `127.0.0.1:2947`,
/// `[::1]:2947`, `[fe80::1%eth0]`, a bare IPv6 literal such as `::1` (which
/// takes the default port, since its colons cannot hold one), and `:2948`
/// (an empty host means `localhost`). The port defaults to gpsd's 2947.
public struct GPSDEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// gpsd's registered TCP port.
    public static let defaultPort = 2947

    /// The host name or address literal, without brackets.
    public let host: String
    /// The TCP port, 1…65535.
    public let port: Int

    /// An endpoint from its parts; `port` must be in 1…65535.
    public init(host: String, port: Int = GPSDEndpoint.defaultPort) {
        precondition((1...65535).contains(port), "a TCP port is in 1…65535")
        self.host = host.isEmpty ? "localhost" : host
        self.port = port
    }

    /// Parses `HOST`, `HOST:PORT`, `[IPV6]`, `[IPV6]:PORT` or a bare IPv6 literal.
    public init(parsing text: String) throws(ParseError) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ParseError(text, "'[' opens an IPv6 address but no ']' closes it")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw ParseError(text, "expected ':PORT' after ']'") }
                portText = rest.dropFirst()
            }
            guard !host.isEmpty else { throw ParseError(text, "the brackets hold no address") }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = Substring(text)
        }
        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw ParseError(text, "'\(portText)' is not a TCP port (1–65535)")
            }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 literal.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Why a `--gpsd` value could not be read.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The text as given.
        public let text: String
        /// What was wrong with it.
        public let problem: String

        init(_ text: String, _ problem: String) {
            self.text = text
            self.problem = problem
        }

        /// A sentence naming the value, the problem and the expected form.
        public var description: String {
            "invalid gpsd address '\(text)': \(problem); expected HOST[:PORT], e.g. localhost:2947 or [::1]:2947"
        }
    }
}
