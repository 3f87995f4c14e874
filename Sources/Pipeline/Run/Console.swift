import Foundation

/// Standard error for people: one line per call, and whether the standard
/// streams are terminals.
public enum Console {
    /// Writes one line (a newline is added) to standard error. Control
    /// characters other than line breaks are escaped (`String.terminalSafe`):
    /// a diagnostic quoting a feed's bytes or a task's title cannot drive
    /// the terminal.
    public static func write(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }
        let text = lines.joined(separator: "\n")
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes `warning: …` to standard error.
    public static func warn(_ message: String) { write("warning: " + message) }

    /// Whether standard output is a terminal.
    public static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    /// Whether standard error is a terminal.
    public static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
