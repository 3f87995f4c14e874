import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
struct ProgressBar {
    let enabled: Bool

    /// Redraws the bar for `phase` at `fraction` (0…1).
    func show(_ phase: String, fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        FileHandle.standardError.write(Data("\r\(phase.padding(toLength: 12, withPad: " ", startingAt: 0)) \(bar) \(percent)%".utf8))
    }

    /// Erases the bar.
    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
