import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// `repeat-sim task history ID`: the completions of a task.
struct TaskHistory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a task's completions: the cycle each closed, and how early or late it was."
    )

    @Argument(help: "The task's id.")
    var id: String

    @Flag(
        help: "JSON lines: {\"completed\",\"cycle\" (1-based, as the table),\"window_start\",\"due\",\"late_s\"}.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try store.openForReading()
        let task = try database.task(id: id)
        let history = try database.history(id: id)
        if json {
            for record in history {
                var line = JSONLine()
                line.add("completed", date: record.completedAt)
                // 1-based, as the table shows it.
                line.add("cycle", record.cycle.map { $0 + 1 })
                line.add("window_start", date: record.windowStart)
                line.add("due", date: record.due)
                line.add("late_s", record.lateness)
                print(line.string)
            }
            return
        }
        print(
            "\(task.title.terminalSafe) (\(task.id.terminalSafe)): \(task.schedule.summary(in: task.timeZone)), \(history.count) completion\(history.count == 1 ? "" : "s")"
        )
        guard !history.isEmpty else { return }
        print("  CYCLE  DONE                       DUE THEN                   ")
        for record in history {
            let cycle = record.cycle.map { String($0 + 1) } ?? "–"
            let due = record.due.map { LocalText.dateTime($0, in: task.timeZone) } ?? "(finished)"
            let timing = record.lateness.map { $0 > 0 ? "\(LocalText.span($0)) late" : "\(LocalText.span(-$0)) early" } ?? ""
            print(
                "  " + cycle.padded(5) + "  " + LocalText.dateTime(record.completedAt, in: task.timeZone).padded(25)
                    + "  " + due.padded(25) + "  " + timing)
        }
    }
}
