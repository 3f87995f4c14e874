import Foundation

/// A place where a task can be done: a circle around a point.
public struct TaskLocation: Hashable, Sendable {
    /// What the place is called, e.g. "Pharmacy".
    public var name: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Radius of the region in metres.
    public var radius: Double

    /// Creates a location.
    public init(name: String, latitude: Double, longitude: Double, radius: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

/// A flexible recurring task: what to do, where, and how it repeats.
///
/// A task is a value; its state is derived from its ``completions`` and a
/// time passed in (``status(at:)``), never from a clock.
public struct RecurringTask: Hashable, Sendable, Identifiable {
    // Stored in this order so that a scheduler that wakes a task up
    // (its end, its completions, its id and title for the reminder)
    // reads the first 56 bytes of it: one or two cache lines, not three.

    /// Stable identifier, e.g. `cat-medicine`.
    public var id: String
    /// What to do, e.g. "Buy cat medicine".
    public var title: String
    /// After this the task is finished.
    public var end: Date?
    /// When the task was done, ascending.
    public private(set) var completions: [Date]
    /// The anchor of the first cycle; no occurrence comes before it.
    public var start: Date
    /// The zone calendar units and weekdays are counted in.
    public var timeZone: TimeZone
    /// How long before the window opens an arrival may already remind.
    public var lead: CalendarDuration
    /// How the task repeats.
    public var schedule: Schedule
    /// The list (group) the task belongs to, e.g. "Pets".
    public var list: String?
    /// Free-form notes.
    public var notes: String?
    /// The device or person whose arrivals count; `nil` for everyone.
    public var assignee: String?
    /// Places where arriving can remind of the task.
    public var locations: [TaskLocation]

    /// Records a completion at `date`, keeping the list ordered.
    public mutating func complete(at date: Date) {
        let index = completions.firstIndex { $0 > date } ?? completions.endIndex
        completions.insert(date, at: index)
    }

    /// Replaces every completion.
    public mutating func setCompletions(_ dates: [Date]) { completions = Self.ascending(dates) }

    /// `dates` in ascending order; the same array when it is already
    /// (the usual case: files and stores keep them in order).
    private static func ascending(_ dates: [Date]) -> [Date] {
        dates.indices.dropFirst().allSatisfy { dates[$0 - 1] <= dates[$0] } ? dates : dates.sorted()
    }

    /// The calendar of the task's zone.
    public var calendar: ZonedCalendar { ZonedCalendar(timeZone: timeZone) }
}

extension RecurringTask {
    // In an extension, so that the struct keeps its memberwise
    // initializer, which makes the task as one value. Set field by field
    // in the initializer's own storage, a task of this size was copied
    // on its way out (every field retained, then released): 450
    // instructions a task. The memberwise initializer keeps completions
    // as given: it is for this one alone.

    /// Creates a task; `completions` are sorted.
    public init(
        id: String, title: String, list: String? = nil, notes: String? = nil, assignee: String? = nil,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, start: Date, end: Date? = nil,
        schedule: Schedule, locations: [TaskLocation] = [], lead: CalendarDuration = .oneDay,
        completions: [Date] = []
    ) {
        self.init(
            id: id, title: title, end: end, completions: Self.ascending(completions), start: start, timeZone: timeZone,
            lead: lead, schedule: schedule, list: list, notes: notes, assignee: assignee, locations: locations)
    }
}
