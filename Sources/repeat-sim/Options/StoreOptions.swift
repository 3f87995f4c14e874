import ArgumentParser
import TaskStore

/// `--db PATH`: where the task store lives.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The task database (SQLite).",
            discussion: """
                Default: $XDG_DATA_HOME/repeat/repeat.sqlite, else ~/.local/share/repeat/repeat.sqlite. Commands that \
                write create the file (and, at the default place only, its folder); list, show and history create \
                nothing and open it read-only.
                """,
            valueName: "path"))
    var path: String?

    /// Opens the store for a command that writes, creating the file if
    /// needed; its folder only at the default place (a `--db` folder must
    /// exist, so that a typo does not grow a tree).
    func open() throws -> TaskDatabase {
        try TaskDatabase(path: path ?? TaskDatabase.defaultPath(), createsFolder: path == nil)
    }

    /// Opens the store for a command that only reads: nothing is created,
    /// and a missing store is an error that says how to make one.
    func openForReading() throws -> TaskDatabase {
        try TaskDatabase(readingFrom: path ?? TaskDatabase.defaultPath())
    }
}
