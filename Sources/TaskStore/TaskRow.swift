import Foundation
import GRDB
import Recurrence

/// A row of the `task` table.
struct TaskRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "task"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let list = Column(CodingKeys.list)
    }

    var id: String
    var title: String
    var list: String?
    var notes: String?
    var assignee: String?
    var timeZone: String
    var startAt: Double
    var endAt: Double?
    var scheduleKind: String
    var dueAt: Double?
    var minInterval: String?
    var maxInterval: String?
    var every: String?
    var weekdays: String?
    var timeOfDay: String?
    var lead: String
    var createdAt: Double

    enum CodingKeys: String, CodingKey {
        case id, title, list, notes, assignee, every, weekdays, lead
        case timeZone = "time_zone", startAt = "start_at", endAt = "end_at", scheduleKind = "schedule_kind"
        case dueAt = "due_at", minInterval = "min_interval", maxInterval = "max_interval"
        case timeOfDay = "time_of_day", createdAt = "created_at"
    }

    /// A row read by column name: through `Decodable`, reading took a
    /// third of `task list`'s time with 100 000 tasks.
    init(row: Row) {
        id = row[CodingKeys.id.rawValue]
        title = row[CodingKeys.title.rawValue]
        list = row[CodingKeys.list.rawValue]
        notes = row[CodingKeys.notes.rawValue]
        assignee = row[CodingKeys.assignee.rawValue]
        timeZone = row[CodingKeys.timeZone.rawValue]
        startAt = row[CodingKeys.startAt.rawValue]
        endAt = row[CodingKeys.endAt.rawValue]
        scheduleKind = row[CodingKeys.scheduleKind.rawValue]
        dueAt = row[CodingKeys.dueAt.rawValue]
        minInterval = row[CodingKeys.minInterval.rawValue]
        maxInterval = row[CodingKeys.maxInterval.rawValue]
        every = row[CodingKeys.every.rawValue]
        weekdays = row[CodingKeys.weekdays.rawValue]
        timeOfDay = row[CodingKeys.timeOfDay.rawValue]
        lead = row[CodingKeys.lead.rawValue]
        createdAt = row[CodingKeys.createdAt.rawValue]
    }

    init(_ task: RecurringTask, createdAt: Date) {
        id = task.id
        title = task.title
        list = task.list
        notes = task.notes
        assignee = task.assignee
        timeZone = task.timeZone.portableIdentifier
        startAt = task.start.timeIntervalSince1970
        endAt = task.end?.timeIntervalSince1970
        lead = task.lead.description
        self.createdAt = createdAt.timeIntervalSince1970
        switch task.schedule {
        case .once(let due):
            scheduleKind = "once"
            dueAt = due.timeIntervalSince1970
        case .afterCompletion(let min, let max):
            scheduleKind = "afterCompletion"
            minInterval = min.description
            maxInterval = max.description
        case .fixed(let interval):
            scheduleKind = "fixed"
            every = interval.description
        case .weekdays(let days, let at):
            scheduleKind = "weekdays"
            weekdays = days.sorted().map(\.shortName).joined(separator: ",")
            timeOfDay = at.description
        }
    }

    /// The task, with its locations and completions.
    func task(locations: [TaskLocation], completions: [Date]) throws -> RecurringTask {
        do {
            let schedule: Schedule
            switch scheduleKind {
            case "once":
                schedule = .once(due: Date(timeIntervalSince1970: dueAt ?? 0))
            case "afterCompletion":
                schedule = .afterCompletion(
                    min: try CalendarDuration(parsing: minInterval ?? ""), max: try CalendarDuration(parsing: maxInterval ?? ""))
            case "fixed":
                schedule = .fixed(every: try CalendarDuration(parsing: every ?? ""))
            default:
                let days = try (weekdays ?? "").split(separator: ",").map { try Weekday(parsing: String($0)) }
                schedule = .weekdays(Set(days), at: try TimeOfDay(parsing: timeOfDay ?? ""))
            }
            return RecurringTask(
                id: id, title: title, list: list, notes: notes, assignee: assignee,
                timeZone: try TimeZone.iana(timeZone), start: Date(timeIntervalSince1970: startAt),
                end: endAt.map(Date.init(timeIntervalSince1970:)), schedule: schedule, locations: locations,
                lead: try CalendarDuration(parsing: lead), completions: completions)
        } catch let error as RecurrenceError {
            throw StoreError.corruptRow("task \"\(id)\": \(error)")
        }
    }
}

/// A row of the `location` table.
struct LocationRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "location"

    var id: Int64?
    var taskID: String
    var position: Int
    var name: String
    var latitude: Double
    var longitude: Double
    var radius: Double

    enum CodingKeys: String, CodingKey {
        case id, position, name, latitude, longitude, radius
        case taskID = "task_id"
    }

    enum Columns {
        static let taskID = Column(CodingKeys.taskID)
        static let position = Column(CodingKeys.position)
    }

    var location: TaskLocation { TaskLocation(name: name, latitude: latitude, longitude: longitude, radius: radius) }
}
