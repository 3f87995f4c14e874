import FeedParsing

/// Where a run's bytes come from.
public enum FeedInput {
    /// A file, or `-` for standard input, read to its end.
    case file(String)
    /// A live source (serial receiver, gpsd, standard input) until it ends
    /// or the run's task is cancelled (Ctrl-C). `name` labels diagnostics;
    /// `format` is the format to assume unless the settings give one (gpsd
    /// speaks its JSON).
    case live(name: String, events: AsyncThrowingStream<LiveSourceEvent, any Error>, format: FeedFormat?)

    /// The name diagnostics and summaries give the input.
    public var name: String {
        switch self {
        case .file(let path): return path == "-" ? "<stdin>" : path
        case .live(let name, _, _): return name
        }
    }
}
