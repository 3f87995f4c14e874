import Foundation

/// Wall-clock time as a summary line says it: `4 ms`, `0.85 s`, `12.3 s`,
/// `2 min 05 s` — never `0.0 s`.
public enum ElapsedText {
    /// The text of `seconds`.
    public static func of(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        if seconds < 0.1 { return "\(max(1, Int((seconds * 1000).rounded()))) ms" }
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return String(format: "%d min %02d s", whole / 60, whole % 60)
    }
}
