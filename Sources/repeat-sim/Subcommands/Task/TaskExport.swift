import ArgumentParser
import Pipeline

/// `repeat-sim task export [--list NAME]`: the store's tasks as a tasks file.
struct TaskExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the tasks, with their places and completions, as a tasks file on standard output.",
        discussion: """
            The file is the one `task import` and `replay --tasks` read: a backup, the
            tasks of another machine's store, or your own tasks replayed against a
            recording. The tasks come in the order they were added (an imported
            file's order); times are written in UTC, to the millisecond.

            Examples:
              repeat-sim task export > tasks.json
              repeat-sim replay drive.gpx --tasks <(repeat-sim task export --list Pets)
            """
    )

    @Option(
        name: .customLong("list"),
        help: ArgumentHelp("Only the tasks of this list (its name without case or accents).", valueName: "name"))
    var listName: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        // In the order they were added: an imported file's tasks as it had them.
        let tasks = try TaskList.tasks(ofList: listName, in: store.openForReading(), inOrderAdded: true)
        print(TaskFileText.text(of: tasks), terminator: "")
    }
}
