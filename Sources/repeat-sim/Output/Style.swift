import Foundation
import Pipeline

/// Whether colour is wanted on standard output.
enum Terminal {
    /// Whether standard error is a terminal.
    static var stderrIsTerminal: Bool { Console.stderrIsTerminal }

    /// Colour on standard output: only on a terminal, and not when `NO_COLOR` is set.
    static var colourOnStdout: Bool {
        Console.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
}

/// ANSI styles, applied only when enabled.
struct Style {
    /// Whether escape sequences are written at all.
    var enabled: Bool

    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
