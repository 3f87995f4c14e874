import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// `repeat-sim task list`: the overview, sorted by due.
struct TaskList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "The overview: every task by due date, with a progress bar and the overdue count.",
        discussion: """
            The bar fills from left to right as the cycle runs; "|" marks where the window
            opens. Overdue tasks are red and counted at the top. Colour only on a terminal
            (NO_COLOR turns it off). --json prints one task show --json object per line.
            """
    )

    @Flag(help: "Machine output: JSON lines, one task a line.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "The moment to evaluate at (RFC 3339, or local: 2025-06-01T12:00, 2025-06-01, 09:00, now, today, tomorrow 09:00; local times in the system's zone, TZ). (default: now)",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var at: LocalTimeArgument?

    @Option(name: .customLong("list"), help: ArgumentHelp("Show only the tasks of this list.", valueName: "name"))
    var listName: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let tasks = try store.openForReading().tasks(list: listName)
        let time = try at?.date(in: .current) ?? Date()
        let rows = TaskOverview.rows(tasks, at: time)
        if json {
            for row in rows { print(TaskJSON.line(row.task, row.status)) }
            return
        }
        print(TaskOverview(rows: rows, time: time, style: Style.forStandardOutput).render(), terminator: "")
    }
}
