import Foundation
import GRDB

/// One completion of a task, with the cycle it closed.
public struct CompletionRecord: FetchableRecord, MutablePersistableRecord, Hashable, Sendable {
    public static let databaseTableName = "completion"

    /// Row id.
    public var id: Int64?
    /// The task completed.
    public var taskID: String
    /// When it was done.
    public var completedAt: Date
    /// When the store learned of it.
    public var recordedAt: Date
    /// The number of the cycle it closed (0 = first); `nil` if the task was finished.
    public var cycle: Int?
    /// When that cycle's window had opened.
    public var windowStart: Date?
    /// When that cycle was due.
    public var due: Date?

    enum CodingKeys: String, CodingKey {
        case id, cycle
        case taskID = "task_id", completedAt = "completed_at", recordedAt = "recorded_at"
        case windowStart = "window_start", due = "due_at"
    }

    /// The columns used in requests.
    public enum Columns {
        /// The task completed.
        public static let taskID = Column(CodingKeys.taskID)
        /// When it was done.
        public static let completedAt = Column(CodingKeys.completedAt)
    }

    /// Seconds after the due date the task was done (negative when early).
    public var lateness: TimeInterval? { due.map { completedAt.timeIntervalSince($0) } }

    public func encode(to container: inout PersistenceContainer) throws {
        container[CodingKeys.id.rawValue] = id
        container[CodingKeys.taskID.rawValue] = taskID
        container[CodingKeys.completedAt.rawValue] = completedAt.timeIntervalSince1970
        container[CodingKeys.recordedAt.rawValue] = recordedAt.timeIntervalSince1970
        container[CodingKeys.cycle.rawValue] = cycle
        container[CodingKeys.windowStart.rawValue] = windowStart?.timeIntervalSince1970
        container[CodingKeys.due.rawValue] = due?.timeIntervalSince1970
    }

    public init(row: Row) throws {
        id = row[CodingKeys.id.rawValue]
        taskID = row[CodingKeys.taskID.rawValue]
        completedAt = Date(timeIntervalSince1970: row[CodingKeys.completedAt.rawValue])
        recordedAt = Date(timeIntervalSince1970: row[CodingKeys.recordedAt.rawValue])
        cycle = row[CodingKeys.cycle.rawValue]
        windowStart = (row[CodingKeys.windowStart.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
        due = (row[CodingKeys.due.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    /// Creates a record.
    public init(
        id: Int64? = nil, taskID: String, completedAt: Date, recordedAt: Date, cycle: Int?, windowStart: Date?, due: Date?
    ) {
        self.id = id
        self.taskID = taskID
        self.completedAt = completedAt
        self.recordedAt = recordedAt
        self.cycle = cycle
        self.windowStart = windowStart
        self.due = due
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A notification that fired, as the live pipeline logs it.
public struct NotificationRecord: FetchableRecord, MutablePersistableRecord, Hashable, Sendable {
    public static let databaseTableName = "notification"

    /// The kind of reminder.
    public enum Kind: String, Sendable, Hashable {
        /// Arrival at one of the task's places.
        case location
        /// The due time passed.
        case due
    }

    /// Row id.
    public var id: Int64?
    /// The task it was for (`nil` once the task is removed).
    public var taskID: String?
    /// location or due.
    public var kind: Kind
    /// When it fired (feed time).
    public var firedAt: Date
    /// The task's title at the time.
    public var title: String
    /// The region entered, for location reminders.
    public var region: String?
    /// The device whose arrival fired it.
    public var device: String?
    /// Distance from the region's centre in metres.
    public var distance: Double?
    /// The cycle's window start.
    public var windowStart: Date?
    /// The cycle's due date.
    public var due: Date?
    /// When it was written to the log (wall clock).
    public var recordedAt: Date

    /// Creates a record.
    public init(
        id: Int64? = nil, taskID: String?, kind: Kind, firedAt: Date, title: String, region: String? = nil,
        device: String? = nil, distance: Double? = nil, windowStart: Date? = nil, due: Date? = nil, recordedAt: Date
    ) {
        self.id = id
        self.taskID = taskID
        self.kind = kind
        self.firedAt = firedAt
        self.title = title
        self.region = region
        self.device = device
        self.distance = distance
        self.windowStart = windowStart
        self.due = due
        self.recordedAt = recordedAt
    }

    public init(row: Row) throws {
        id = row["id"]
        taskID = row["task_id"]
        guard let kind = Kind(rawValue: row["kind"]) else {
            throw StoreError.corruptRow("notification kind \(row["kind"] ?? "")")
        }
        self.kind = kind
        firedAt = Date(timeIntervalSince1970: row["fired_at"])
        title = row["title"]
        region = row["region"]
        device = row["device"]
        distance = row["distance_m"]
        windowStart = (row["window_start"] as Double?).map(Date.init(timeIntervalSince1970:))
        due = (row["due_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        recordedAt = Date(timeIntervalSince1970: row["recorded_at"])
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["task_id"] = taskID
        container["kind"] = kind.rawValue
        container["fired_at"] = firedAt.timeIntervalSince1970
        container["title"] = title
        container["region"] = region
        container["device"] = device
        container["distance_m"] = distance
        container["window_start"] = windowStart?.timeIntervalSince1970
        container["due_at"] = due?.timeIntervalSince1970
        container["recorded_at"] = recordedAt.timeIntervalSince1970
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
