import Foundation

/// Writing to standard error and standard output without Foundation's
/// per-call overhead; stdout is buffered and flushed explicitly.
enum Diagnostics {
    /// Writes one line (a newline is added) to standard error.
    static func write(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// Writes `warning: …` to standard error.
    static func warn(_ message: String) { write("warning: " + message) }
}

/// Whether a file descriptor is a terminal, and whether colour is wanted on it.
enum Terminal {
    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    /// Whether standard error is a terminal.
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Colour on standard output: only on a terminal, and not when `NO_COLOR` is set.
    static var colourOnStdout: Bool {
        stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
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
