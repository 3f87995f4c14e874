import Foundation
import Recurrence

/// The home-screen overview: one line a task, sorted by due.
///
/// ```
/// Tasks at 2025-03-17 13:00 +01:00 — 1 overdue
///   STATE     DUE               TASK                      PROGRESS
///   overdue   Mon  3 Mar 09:00  Water the plants          [████████████████████] 14d over
///   window    Mon 14 Apr 09:00  Buy cat medicine          [██████████████|░░░░░]  71%
/// ```
///
/// The header is in the viewer's zone; each due time in its task's zone,
/// with the year when it is not the current one.
public struct TaskOverview {
    /// A task and its status at the overview's moment.
    public struct Row {
        /// The task.
        public var task: RecurringTask
        /// Its status at the overview's moment.
        public var status: TaskStatus
    }

    /// The rows, in order.
    public var rows: [Row]
    /// The overview's moment.
    public var time: Date
    /// Colours, or none.
    public var style: Style
    /// The zone the header's time is shown in: the viewer's.
    public var zone: TimeZone

    /// An overview of `rows` at `time`, its header in `zone`.
    public init(rows: [Row], time: Date, style: Style, zone: TimeZone = .current) {
        self.rows = rows
        self.time = time
        self.style = style
        self.zone = zone
    }

    /// The rows for `tasks` at `time`, by due date; finished tasks last.
    public static func rows(_ tasks: [RecurringTask], at time: Date) -> [Row] {
        let rows = tasks.map { Row(task: $0, status: $0.status(at: time)) }
        // Their positions sorted by the keys, not the rows: a row is some
        // 250 bytes, and sorting 100 000 of them moved each many times.
        let dues = rows.map { $0.status.cycle?.due }
        let order = rows.indices.sorted { a, b in
            switch (dues[a], dues[b]) {
            case let (x?, y?): return x != y ? x < y : rows[a].task.id < rows[b].task.id
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return rows[a].task.id < rows[b].task.id
            }
        }
        return order.map { rows[$0] }
    }

    /// The whole screen, ending with a newline.
    public func render() -> String {
        let overdue = rows.filter { $0.status.state == .overdue }.count
        var header = "Tasks at \(LocalText.dateTime(time, in: zone))"
        if overdue > 0 { header += " — " + style.red(style.bold("\(overdue) overdue")) }
        var lines = [header]
        guard !rows.isEmpty else {
            return (lines + ["  No tasks. Add one with `repeat-sim task add` or `task import`."]).joined(separator: "\n") + "\n"
        }
        let titleWidth = min(32, max(10, rows.map { $0.task.title.count }.max() ?? 10))
        let dues = rows.map { row in row.status.cycle.map { LocalText.short($0.due, in: row.task.timeZone, now: time) } ?? "–" }
        let dueWidth = max(16, dues.map(\.count).max() ?? 16)
        lines.append(style.dim("  STATE     " + "DUE".padded(dueWidth) + "  " + "TASK".padded(titleWidth) + "  PROGRESS"))
        for (row, due) in zip(rows, dues) {
            let state = Self.stateText(row.status.state, style: style, width: 9)
            lines.append(
                "  \(state) \(due.padded(dueWidth))  \(row.task.title.fitted(titleWidth))  "
                    + Self.bar(row.status, width: 20, style: style))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The state word, coloured and padded.
    public static func stateText(_ state: TaskState, style: Style, width: Int = 0) -> String {
        let text = state.rawValue.padded(width)
        switch state {
        case .overdue: return style.red(text)
        case .window: return style.yellow(text)
        case .dueSoon: return style.cyan(text)
        case .finished: return style.dim(text)
        case .waiting: return text
        }
    }

    /// `[██████████████|░░░░░]  71%`: filled by progress, `|` where the window opens.
    public static func bar(_ status: TaskStatus, width: Int, style: Style) -> String {
        guard let cycle = status.cycle else { return style.dim("[" + String(repeating: "·", count: width) + "] done") }
        let filled = Int((status.progress * Double(width)).rounded(.down))
        let length = cycle.due.timeIntervalSince(cycle.anchor)
        let windowAt =
            length > 0 && cycle.windowStart < cycle.due
            ? Int((cycle.windowStart.timeIntervalSince(cycle.anchor) / length * Double(width)).rounded()) : nil
        var cells = ""
        for index in 0..<width {
            if index == windowAt, index > 0 { cells += "|"; continue }
            cells += index < filled ? "█" : "░"
        }
        let suffix: String
        if status.state == .overdue {
            suffix = LocalText.span(status.time.timeIntervalSince(cycle.due)) + " over"
        } else {
            let percent = Int((status.progress * 100).rounded(.down))
            suffix = String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0) + "\(percent)%"
        }
        let text = "[" + cells + "] " + suffix
        return status.state == .overdue ? style.red(text) : text
    }
}
