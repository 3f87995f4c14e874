import Foundation
import GeoCore

/// The progress line of a long run: bytes of the feeds read (a bar
/// when their sizes are known), fixes evaluated and the feed clock, at most
/// ten times a second.
///
/// Drawn only when stderr is a terminal and stdout is not (the reminders go
/// to a file or a pipe): on a terminal the reminder lines themselves show
/// the progress, and a bar would tear them.
struct RunProgress {
    private let label: String
    private let bar: ProgressBar
    private let totalBytes: Int?
    private var finishedBytes = 0
    private var lastDraw = Date.distantPast
    private(set) var isDrawn = false

    /// A progress line labelled `label` for `feeds` (`-` is standard
    /// input, of unknown size unless copied whole into its spool of
    /// `spools`), drawn only when `enabled` and stderr is a terminal while
    /// stdout is not.
    init(label: String, feeds: [String], spools: [String: FeedSpool] = [:], enabled: Bool) {
        self.label = label
        bar = ProgressBar(enabled: enabled && Console.stderrIsTerminal && !Console.stdoutIsTerminal)
        totalBytes = FeedRun.totalBytes(of: feeds, spools: spools)
    }

    /// Redraws the line if a tenth of a second has passed: `bytes` read of
    /// the current feed, `fixes` evaluated so far, the feed clock at `time`.
    mutating func update(bytes: Int, fixes: Int, time: Timestamp?) {
        guard bar.enabled, Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let read = finishedBytes + bytes
        let fraction = totalBytes.flatMap { $0 > 0 ? Double(read) / Double($0) : nil }
        var detail = "\(fixes) fixes"
        if let time { detail += ", feed at " + String(RFC3339.format(time).prefix(19)).replacingOccurrences(of: "T", with: " ") }
        if fraction == nil { detail += ", \(read >> 20) MiB read" }
        bar.show(label, fraction: fraction, detail: detail)
        isDrawn = true
    }

    /// Counts a feed of `bytes` as done, for the next feed's fraction.
    mutating func finishFeed(bytes: Int) { finishedBytes += bytes }

    /// Erases the line (before anything else is written to the terminal).
    mutating func clear() {
        guard isDrawn else { return }
        bar.clear()
        isDrawn = false
    }
}
