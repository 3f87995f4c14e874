import ArgumentParser
import Foundation
import Recurrence

/// `repeat-sim task import FILE`: loads a tasks file into the store.
struct TaskImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a tasks file (the --tasks JSON format) into the store.",
        discussion: """
            All tasks are imported together or none is: a bad task or a clashing
            id imports nothing and names the task and the field. Use --replace to
            overwrite tasks whose id exists (their completions become the file's).
            """
    )

    @Argument(help: ArgumentHelp("The tasks file (JSON), or - for standard input.", valueName: "file"))
    var file: String

    @Flag(help: "Replace tasks whose id already exists.")
    var replace = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let tasks = try loadTasks(file)
        let counts = try store.open().importTasks(tasks, replace: replace)
        print(
            "Imported \(tasks.count) task\(tasks.count == 1 ? "" : "s")"
                + (counts.replaced > 0 ? " (\(counts.replaced) replaced)" : "") + ".")
    }
}
