import ArgumentParser

/// `repeat-sim task …`: the task store.
struct TaskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "Create, complete and inspect flexible recurring tasks.",
        discussion: """
            Tasks live in a SQLite database
            (--db, default $XDG_DATA_HOME/repeat/repeat.sqlite).
            A task repeats in one of four ways:
              --after 10w-14w     start new after tap: due 14 weeks after each
                                  completion, window open from week 10
                                  (--after 2w is a fixed interval)
              --every 2w          start new in time: start + k·2w; an early
                                  completion moves to the next occurrence, a
                                  late one skips the missed ones
              --weekdays mon,fri --at-time 18:00
              --due 2025-07-31T18:00:00+02:00   once
            Durations: 45s 30m 6h 3d 2w 1mo 1y. Times: RFC 3339, or "now".

            Examples:
              repeat-sim task import Tracks/cat-medicine/tasks.json
              repeat-sim task add --title "Buy cat medicine" --after 10w-14w \\
                --at-place 52.5163,13.3777 --radius 150
              repeat-sim task done cat-medicine
              repeat-sim task undo cat-medicine
              repeat-sim task list
            """,
        subcommands: [
            TaskImport.self, TaskExport.self, TaskAdd.self, TaskEdit.self, TaskDone.self, TaskUndo.self, TaskRemove.self,
            TaskHistory.self,
            TaskShow.self, TaskList.self,
        ]
    )
}

/// Why a task command could not do what was asked, once its flags were
/// accepted: a plain error (exit 1) without the usage text.
struct TaskFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
