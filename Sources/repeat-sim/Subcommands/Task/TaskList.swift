import ArgumentParser
import Foundation
import Pipeline
import Recurrence
import TaskStore

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

    @Option(
        name: .customLong("list"),
        help: ArgumentHelp("Show only the tasks of this list (its name without case or accents).", valueName: "name"))
    var listName: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let tasks = try Self.tasks(ofList: listName, in: store.openForReading())
        let time = try at?.date(in: .current) ?? Date()
        let rows = TaskOverview.rows(tasks, at: time)
        if json {
            for row in rows { print(TaskJSON.line(row.task, row.status)) }
            return
        }
        print(TaskOverview(rows: rows, time: time, style: Style.forStandardOutput).render(), terminator: "")
    }

    /// Every task in `database`, or those of the list `name` matches
    /// without case or accents (`pets` is `Pets`); ordered by id, or in the
    /// order they were added.
    /// - Throws: a ``TaskFailure`` naming the lists there are when none is it.
    static func tasks(ofList name: String?, in database: TaskDatabase, inOrderAdded: Bool = false) throws -> [RecurringTask] {
        let tasks = try database.tasks(list: name, inOrderAdded: inOrderAdded)
        guard let name, tasks.isEmpty else { return tasks }
        return try Self.tasks(ofList: name, in: database.tasks(inOrderAdded: inOrderAdded))
    }

    /// The tasks of the list `name` matches without case or accents, among `all`.
    private static func tasks(ofList name: String, in all: [RecurringTask]) throws -> [RecurringTask] {
        let wanted = NamedPlace.key(name)
        let found = all.filter { $0.list.map(NamedPlace.key) == wanted }
        guard found.isEmpty, !all.isEmpty else { return found }
        let lists = Set(all.compactMap(\.list)).sorted()
        guard !lists.isEmpty else {
            throw TaskFailure(
                "no task is in a list \"\(name.terminalSafe)\": no task is in any list (task add --list NAME puts one in)")
        }
        throw TaskFailure(
            "no task is in a list \"\(name.terminalSafe)\"; the lists are \(lists.map { "\"\($0.terminalSafe)\"" }.joined(separator: ", "))"
        )
    }
}
