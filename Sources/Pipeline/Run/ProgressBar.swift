import Foundation

/// A one-line progress bar on stderr, drawn only when enabled (stderr a
/// terminal).
public struct ProgressBar: Sendable {
    /// Whether anything is drawn.
    public let enabled: Bool

    /// A bar that draws only when `enabled`.
    public init(enabled: Bool) { self.enabled = enabled }

    /// Redraws the bar for `phase` at `fraction` (0…1), followed by
    /// `detail`; without a fraction (an input of unknown length) only the
    /// detail.
    public func show(_ phase: String, fraction: Double?, detail: String = "") {
        guard enabled else { return }
        var line = "\r\u{1B}[2K" + phase.padding(toLength: 12, withPad: " ", startingAt: 0)
        if let fraction {
            let width = 30
            let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            line += " \(bar) \(Int((fraction * 100).rounded(.down)))%"
        }
        if !detail.isEmpty { line += "  " + detail }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Erases the bar.
    public func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
