import Foundation
import Recurrence

/// Tasks as the tasks file that `task import` and `--tasks` read (DESIGN.md's
/// format): what `task export` writes. A task read back from it is the task
/// written, its times to the millisecond (RFC 3339 in UTC).
public enum TaskFileText {
    /// `{"tasks": [`, one task a line, `]}`.
    public static func text(of tasks: [RecurringTask]) -> String {
        let lines = tasks.map { "  " + object(of: $0).string }
        return "{\"tasks\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "]}\n"
    }

    /// One task's object: its optional fields only when set.
    private static func object(of task: RecurringTask) -> JSONLine {
        var line = JSONLine()
        line.add("id", task.id)
        line.add("title", task.title)
        for (key, value) in [("list", task.list), ("notes", task.notes), ("assignee", task.assignee)] {
            if let value { line.add(key, value) }
        }
        line.add("timeZone", task.timeZone.portableIdentifier)
        line.add("start", date: task.start)
        if let end = task.end { line.add("end", date: end) }
        line.add("schedule", object: schedule(task.schedule))
        line.add("lead", task.lead.description)
        if !task.locations.isEmpty {
            line.add(
                "locations",
                objects: task.locations.map { location in
                    var place = JSONLine()
                    place.add("name", location.name)
                    place.add("lat", location.latitude)
                    place.add("lon", location.longitude)
                    place.add("radius", location.radius)
                    return place
                })
        }
        if !task.completions.isEmpty { line.add("completions", strings: task.completions.map(RFC3339Text.format)) }
        return line
    }

    /// `{"afterCompletion": {"min": "10w", "max": "14w"}}` and the like.
    private static func schedule(_ schedule: Schedule) -> JSONLine {
        var rule = JSONLine()
        let kind: String
        switch schedule {
        case .once(let due):
            kind = "once"
            rule.add("due", date: due)
        case .afterCompletion(let min, let max):
            kind = "afterCompletion"
            rule.add("min", min.description)
            rule.add("max", max.description)
        case .fixed(let every):
            kind = "fixed"
            rule.add("every", every.description)
        case .weekdays(let days, let time):
            kind = "weekdays"
            rule.add("days", strings: days.sorted().map(\.shortName))
            rule.add("at", time.description)
        }
        var object = JSONLine()
        object.add(kind, object: rule)
        return object
    }
}
