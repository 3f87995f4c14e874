import Foundation
import Recurrence

/// The `task show --json` object of DESIGN.md's contract.
public enum TaskJSON {
    /// `{"id","title","state","window_start","due","progress","last_completed"}`; `list` follows
    /// when the task has one. Times are UTC RFC 3339; `window_start`/`due` are null once finished.
    public static func line(_ task: RecurringTask, _ status: TaskStatus) -> String {
        var line = JSONLine()
        line.add("id", task.id)
        line.add("title", task.title)
        line.add("state", status.state.rawValue)
        line.add("window_start", date: status.cycle?.windowStart)
        line.add("due", date: status.cycle?.due)
        line.add("progress", (status.progress * 10_000).rounded() / 10_000)
        line.add("last_completed", date: status.lastCompleted)
        if let list = task.list { line.add("list", list) }
        return line.string
    }
}
