import ArgumentParser
import Foundation
import Pipeline
import Recurrence
import TaskStore

/// `repeat-sim task done ID [--at TIME]`: records a completion.
struct TaskDone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark a task done (now, or --at a time) and show what comes next.",
        discussion: "Safe from several shells at once: completions are transactions in a WAL database."
    )

    @Argument(help: "The task's id.")
    var id: String

    @Option(
        help: ArgumentHelp(
            "When it was done (RFC 3339, or local: 2025-06-01T12:00, 2025-06-01, 09:00, now, today, tomorrow 09:00; local times in the task's zone). (default: now)",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var at: LocalTimeArgument?

    @Flag(help: "Print the new state as task show --json does.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try store.open()
        let time = try at?.date(in: database.task(id: id).timeZone) ?? Date()
        let record = try database.complete(id: id, at: time)
        let task = try database.task(id: id)
        // Recorded as given (a tasks file's completions are too), but most likely a slip.
        if let slip = Self.slip(at: time, closing: record, of: task, now: Date()) {
            Console.warn("\(slip); the completion is recorded as given (`repeat-sim task undo \(task.id)` takes it back)")
        }
        // What comes next counts from the last completion, which may be
        // later than one entered after the fact.
        let latest = max(time, task.completions.last ?? time)
        let status = task.status(at: latest)
        if json {
            print(TaskJSON.line(task, status))
            return
        }
        var message = "Done: \(task.title.terminalSafe) at \(LocalText.dateTime(time, in: task.timeZone))"
        if let lateness = record.lateness {
            message += lateness > 0 ? " (\(LocalText.span(lateness)) late)" : " (\(LocalText.span(-lateness)) early)"
        }
        print(message + ".")
        let heading = latest > time ? "Next, after its completion at \(LocalText.dateTime(latest, in: task.timeZone))" : "Next"
        print(Self.nextLine(heading, status, of: task))
    }

    /// What makes a completion at `time` most likely a slip, if anything:
    /// before the task's start, in the future, after its end, or of a
    /// one-off task done already (`record` closed no cycle).
    static func slip(at time: Date, closing record: CompletionRecord, of task: RecurringTask, now: Date) -> String? {
        let zone = task.timeZone
        let when = LocalText.dateTime(time, in: zone)
        if time < task.start { return "\(when) is before the task's start (\(LocalText.dateTime(task.start, in: zone)))" }
        if time > now.addingTimeInterval(60) { return "\(when) is in the future: until then the task does not count it" }
        guard record.cycle == nil else { return nil }
        if let end = task.end, time > end { return "\(when) is after the task's end (\(LocalText.dateTime(end, in: zone)))" }
        return task.completions.last(where: { $0 < time }).map {
            "the one-off task was done already, at \(LocalText.dateTime($0, in: zone))"
        }
    }

    /// What a task waits for once its completions are as `status` found
    /// them: `HEADING: window opens …, due …`, or that it is finished.
    static func nextLine(_ heading: String, _ status: TaskStatus, of task: RecurringTask) -> String {
        guard let cycle = status.cycle else { return "The task is finished." }
        let due = "due \(LocalText.dateTime(cycle.due, in: task.timeZone))."
        guard cycle.windowStart < cycle.due else { return "\(heading): \(due)" }
        return "\(heading): window opens \(LocalText.dateTime(cycle.windowStart, in: task.timeZone)), \(due)"
    }
}
