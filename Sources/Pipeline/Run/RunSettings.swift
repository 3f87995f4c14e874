import FeedParsing
import Recurrence

/// How a ``FeedRun`` reads, paces and reports.
public struct RunSettings {
    /// The command's name, for the progress line and the summary.
    public var label: String
    /// The feed format; `nil` detects it from the content.
    public var format: FeedFormat?
    /// Decoder settings (`--date`, `--columns`, waypoints).
    public var decoding: FeedDecodingOptions
    /// Stop at the first malformed record (`--strict`): nothing decoded
    /// from the read that held it is handed on.
    public var strict = false
    /// How fast to play the feed (`--speed`).
    public var pace = Pace.max
    /// Give the fixes of each file that carry no device of their own the
    /// file's name as device (replaying several files).
    public var namesDevicesAfterFiles = false
    /// Print every diagnostic (`--verbose`); by default one repeated on
    /// many lines is printed a few times, then counted.
    public var verbose = false
    /// Draw a progress line when stderr is a terminal and stdout is not.
    public var showsProgress = false
    /// Print each diagnostic and dropped fix on stderr (counted either
    /// way); `bench` prints them on its first run only.
    public var reportsDiagnostics = true
    /// Run the per-device stages of files on this many worker threads,
    /// with decoding on a thread of its own (`--jobs`); 1 runs everything
    /// on the calling thread. The output is the same bytes either way. A
    /// decode run above 1 decodes on a thread of its own, its sinks on the
    /// calling thread.
    public var jobs = 1
    /// Feeds through a pipe that are read more than once, by path: the
    /// first read copies each into its spool, later ones read the copy.
    public var spools: [String: FeedSpool] = [:]
    /// The most worker threads a run uses.
    public static let maximumJobs = 64
    /// Re-read the tasks this often while a live input runs (`live` with
    /// the store), with the function that reads them.
    public var taskReload: (seconds: Double, read: () throws -> [RecurringTask])?
    /// A stop a file run looks for before each read it hands on (and while
    /// it paces): it then ends as at the end of its feeds
    /// (``FeedRun/Result/stoppedBySignal``).
    public var stop: StopRequest?

    /// Settings for a run labelled `label`.
    public init(label: String, format: FeedFormat?, decoding: FeedDecodingOptions) {
        self.label = label
        self.format = format
        self.decoding = decoding
    }
}
