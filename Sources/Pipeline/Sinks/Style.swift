import Foundation

/// ANSI styles, applied only when enabled.
public struct Style: Sendable {
    /// Whether escape sequences are written at all.
    public var enabled: Bool

    /// Styles for standard output: only on a terminal, and not when
    /// `NO_COLOR` is set.
    public static var forStandardOutput: Style {
        Style(enabled: Console.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    /// Styles that are applied only when `enabled`.
    public init(enabled: Bool) { self.enabled = enabled }

    public func red(_ text: String) -> String { wrap(text, "31") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
