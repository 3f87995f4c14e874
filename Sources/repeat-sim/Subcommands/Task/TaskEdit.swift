import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// `repeat-sim task edit ID`: changes fields of a task.
struct TaskEdit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a task's fields; its completions stay.",
        discussion: """
            Only the flags given change. An empty value clears an optional field
            (--list ""). A schedule flag replaces the schedule. --at-place adds
            places; --clear-places first removes the old ones.

            Example: repeat-sim task edit cat-medicine --after 8w-12w --lead 2d
            """
    )

    @Argument(help: "The task's id.")
    var id: String

    @OptionGroup var fields: TaskFieldOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try store.open()
        var task = try database.task(id: id)
        try fields.apply(to: &task, book: database.places)
        try database.update(task)
        print("Updated \(task.id.terminalSafe): \(task.title.terminalSafe) (\(task.schedule.summary(in: task.timeZone))).")
        // A due or a start given here is one given as add's --start is.
        let slips = TaskAdd.slips(of: task, startGiven: fields.start != nil || fields.due != nil, now: Date())
        for warning in slips { Console.warn(warning) }
    }
}
