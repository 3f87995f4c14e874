import ArgumentParser
import TaskStore

/// `--db PATH`: where the task store lives.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The task database (SQLite).",
            discussion: "Default: $XDG_DATA_HOME/repeat/repeat.sqlite, else ~/.local/share/repeat/repeat.sqlite.",
            valueName: "path"))
    var path: String?

    /// Opens the store, creating it (and its folder) if needed.
    func open() throws -> TaskDatabase {
        try TaskDatabase(path: path ?? TaskDatabase.defaultPath())
    }
}
