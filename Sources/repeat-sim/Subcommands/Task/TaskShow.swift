import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// `repeat-sim task show ID [--json] [--at TIME]`.
struct TaskShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one task: its state, window, due date and progress at a moment.",
        discussion: """
            --json prints one object with the fields id, title, state, window_start,
            due, progress and last_completed. state is one of
              waiting    nothing to do yet
              due-soon   windowStart − lead ≤ t < windowStart
              window     windowStart ≤ t ≤ due
              overdue    t > due, not done since
              finished   a one-off task done, or past its end
            Times are UTC (RFC 3339); window_start and due are null once finished.
            """
    )

    @Argument(help: "The task's id.")
    var id: String

    @Flag(help: "Machine output: one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "The moment to evaluate at (RFC 3339, or local: 2025-06-01T12:00, 2025-06-01, 09:00, now, today, tomorrow 09:00; local times in the task's zone). (default: now)",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var at: LocalTimeArgument?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try store.openForReading()
        let task = try database.task(id: id)
        let time = try at?.date(in: task.timeZone) ?? Date()
        let status = task.status(at: time)
        if json {
            print(TaskJSON.line(task, status))
            return
        }
        let style = Style.forStandardOutput
        let zone = task.timeZone
        print(
            style.bold(task.title.terminalSafe) + " (\(task.id.terminalSafe))" + (task.list.map { " — \($0.terminalSafe)" } ?? "")
        )
        print("  schedule   \(task.schedule.summary(in: zone)), lead \(task.lead), zone \(zone.displayName)")
        print(
            "  start      \(LocalText.dateTime(task.start, in: zone))"
                + (task.end.map { ", ends \(LocalText.dateTime($0, in: zone))" } ?? ""))
        print("  state      " + TaskOverview.stateText(status.state, style: style) + " at \(LocalText.dateTime(time, in: zone))")
        if let cycle = status.cycle {
            if cycle.windowStart < cycle.due { print("  window     \(LocalText.dateTime(cycle.windowStart, in: zone))") }
            print("  due        \(LocalText.dateTime(cycle.due, in: zone))")
            print("  progress   " + TaskOverview.bar(status, width: 30, style: style))
        }
        print("  last done  " + (status.lastCompleted.map { LocalText.dateTime($0, in: zone) } ?? "never"))
        for location in task.locations {
            print(
                "  place      \(location.name.terminalSafe): \(location.latitude),\(location.longitude) r=\(RadiusText.metres(location.radius)) m"
            )
        }
        if let assignee = task.assignee { print("  assignee   \(assignee)") }
        if let notes = task.notes { print("  notes      \(notes.terminalSafe)") }
        for reminder in try database.notifications(taskID: task.id, limit: 5) {
            let place = reminder.region.map { " at \($0.terminalSafe)" } ?? ""
            print("  reminded   \(LocalText.dateTime(reminder.firedAt, in: zone)) \(reminder.kind.rawValue)\(place)")
        }
    }
}
