import Foundation

/// Standard error for people: one line per call, and whether the standard
/// streams are terminals.
public enum Console {
    /// Writes one line (a newline is added) to standard error.
    public static func write(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// Writes `warning: …` to standard error.
    public static func warn(_ message: String) { write("warning: " + message) }

    /// Whether standard output is a terminal.
    public static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    /// Whether standard error is a terminal.
    public static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
