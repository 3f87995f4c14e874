import ArgumentParser
import Foundation
import Pipeline
import Recurrence
import TaskStore

/// `repeat-sim task undo ID [--at TIME]`: takes back a completion.
struct TaskUndo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back a completion: the one recorded last, or the one at --at.",
        discussion: """
            For a `task done` given by mistake, or with a wrong --at (take it
            back, then give it again with the right one). The completions after
            it are counted again (the cycle each closed, as `task history`
            shows), and what the task waits for now is printed.

            Examples:
              repeat-sim task undo water-plants
              repeat-sim task undo water-plants --at "2025-06-01 18:30"
            """
    )

    @Argument(help: "The task's id.")
    var id: String

    @Option(
        help: ArgumentHelp(
            "The completion to take back, by its time as `task history` shows it: to the minute, or to the second when two share a minute (a time as for task done --at, local times in the task's zone). (default: the one recorded last)",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var at: LocalTimeArgument?

    @Flag(help: "Print the new state as task show --json does.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try store.open()
        let task = try database.task(id: id)
        let history = try database.history(id: id)
        let record = try chosen(from: history, of: task)
        try database.removeCompletion(recordID: record.id ?? -1, of: id)
        let after = try database.task(id: id)
        // The cycle in force after the completions left: from the last of them on.
        let status = after.status(at: max(after.start, after.completions.last ?? after.start))
        if json {
            print(TaskJSON.line(after, status))
            return
        }
        let zone = after.timeZone
        print("Took back: \(after.title.terminalSafe) done at \(LocalText.dateTime(record.completedAt, in: zone)).")
        let heading =
            after.completions.last.map { "Next, after its completion at \(LocalText.dateTime($0, in: zone))" }
            ?? "Next, with no completion left"
        print(TaskDone.nextLine(heading, status, of: after))
    }

    /// Whether `text` has a time of day with its seconds, as in `10:00:30`
    /// (an offset's `+01:00` is not one).
    private static func givesSeconds(_ text: String) -> Bool { text.contains(/\d:\d\d:\d\d/) }

    /// The completion `--at` names (to the second when they are given,
    /// else to the minute), or the one recorded last.
    private func chosen(from history: [CompletionRecord], of task: RecurringTask) throws -> CompletionRecord {
        let zone = task.timeZone
        guard let last = history.max(by: { ($0.id ?? 0) < ($1.id ?? 0) }) else {
            throw TaskFailure("\(task.id) has no completion to take back")
        }
        guard let at else { return last }
        let time = try at.date(in: zone)
        // To the minute, unless the seconds were typed: the times written as this one is.
        let toTheSecond = Self.givesSeconds(at.text)
        let written = LocalText.dateTime(time, in: zone, seconds: toTheSecond)
        let matches = history.filter { LocalText.dateTime($0.completedAt, in: zone, seconds: toTheSecond) == written }
        func listed(_ records: [CompletionRecord]) -> String {
            records.map { LocalText.dateTime($0.completedAt, in: zone, seconds: true) }.joined(separator: ", ")
        }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let nearest = history.sorted {
                abs($0.completedAt.timeIntervalSince(time)) < abs($1.completedAt.timeIntervalSince(time))
            }
            .prefix(3).sorted { $0.completedAt < $1.completedAt }
            throw TaskFailure(
                "\(task.id) has no completion at \(written); the nearest: \(listed(nearest))"
                    + " (`repeat-sim task history \(task.id)` lists them all)")
        default:
            throw TaskFailure(
                "\(task.id) has \(matches.count) completions at \(written): \(listed(matches)); give --at to the second")
        }
    }
}
