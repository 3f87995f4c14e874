import Foundation
import GeoCore

/// Reads a task object straight from the bytes of a tasks file as they are
/// checked (``DirectJSONCursor`` checks every byte it takes), with no tree
/// of JSON values: ``TaskFile``'s fast path.
///
/// It takes only tasks that the tree reader (`TaskReader`) accepts, and
/// reads them as it does. For anything else — a problem of any kind, a
/// field it does not know, a key written twice, a `null`, a string with an
/// escape or blanks around a date — it answers `nil`, and the task is read
/// as a tree, which names the problem. Differential tests and the
/// `fuzz-tasks` target hold the two readers to the same answers.
enum DirectTaskReader {
    /// Reads the task object that `cursor` is before into the memory at
    /// `slot`, which must hold nothing, and moves the cursor past it;
    /// `false`, with `slot` left empty and the cursor anywhere, when the
    /// tree reader must read it. Made in place: returned as an optional,
    /// a task's 184 bytes were moved twice more on the way to a piece's
    /// tasks (24M instructions for 100 000 tasks).
    static func read(
        from cursor: inout DirectJSONCursor, zones: inout ZoneNames, into slot: UnsafeMutablePointer<RecurringTask>
    ) -> Bool {
        var fields = TaskFields()
        var seen: UInt16 = 0
        let read = cursor.members { name, cursor in
            guard let field = TaskField(name), seen & field.bit == 0 else { return false }
            seen |= field.bit
            return fields.read(field, from: &cursor, zones: &zones)
        }
        return read && fields.task(into: slot)
    }
}

/// The members of a task object.
private enum TaskField: UInt16 {
    case id, title, list, notes, assignee, timeZone, start, end, lead, schedule, locations, completions

    /// The field `name` spells; `nil` for none.
    init?(_ name: UnsafeBufferPointer<UInt8>) {
        // By the first letter and the length, then the whole name.
        guard name.count >= 2 else { return nil }
        let candidate: TaskField
        switch (name[0], name.count) {
        case (UInt8(ascii: "a"), 8): candidate = .assignee
        case (UInt8(ascii: "c"), 11): candidate = .completions
        case (UInt8(ascii: "e"), 3): candidate = .end
        case (UInt8(ascii: "i"), 2): candidate = .id
        case (UInt8(ascii: "l"), 4): candidate = name[1] == UInt8(ascii: "i") ? .list : .lead
        case (UInt8(ascii: "l"), 9): candidate = .locations
        case (UInt8(ascii: "n"), 5): candidate = .notes
        case (UInt8(ascii: "s"), 5): candidate = .start
        case (UInt8(ascii: "s"), 8): candidate = .schedule
        case (UInt8(ascii: "t"), 5): candidate = .title
        case (UInt8(ascii: "t"), 8): candidate = .timeZone
        default: return nil
        }
        guard name.spells(candidate.spelling) else { return nil }
        self = candidate
    }

    /// The name as the file spells it.
    var spelling: StaticString {
        switch self {
        case .id: "id"
        case .title: "title"
        case .list: "list"
        case .notes: "notes"
        case .assignee: "assignee"
        case .timeZone: "timeZone"
        case .start: "start"
        case .end: "end"
        case .lead: "lead"
        case .schedule: "schedule"
        case .locations: "locations"
        case .completions: "completions"
        }
    }

    /// The field's bit in a set of fields.
    var bit: UInt16 { 1 << rawValue }
}

/// A location as written, before the task's id names it.
private struct LocationFields {
    var name: String?
    var latitude: Double?
    var longitude: Double?
    var radius: Double?
}

/// What a task object's members said, read one by one.
private struct TaskFields {
    var id: String?
    var title: String?
    var list: String?
    var notes: String?
    var assignee: String?
    var zone: TimeZone?
    var start: Date?
    var end: Date?
    var lead: CalendarDuration?
    var schedule: Schedule?
    var locations: [LocationFields] = []
    var completions: [Date] = []

    /// Reads `field`'s value; `false` if the tree reader must read the task.
    mutating func read(_ field: TaskField, from cursor: inout DirectJSONCursor, zones: inout ZoneNames) -> Bool {
        switch field {
        case .id: Self.fill(&id, cursor.plainString().map(Self.text))
        case .title: Self.fill(&title, cursor.plainString().map(Self.text))
        case .list: Self.fill(&list, cursor.plainString().map(Self.text))
        case .notes: Self.fill(&notes, cursor.plainString().map(Self.text))
        case .assignee: Self.fill(&assignee, cursor.plainString().map(Self.text))
        case .timeZone: Self.fill(&zone, cursor.plainString().flatMap { zones.zone(named: $0) })
        case .start: Self.fill(&start, Self.date(from: &cursor))
        case .end: Self.fill(&end, Self.date(from: &cursor))
        case .lead: Self.fill(&lead, cursor.plainString().flatMap(CalendarDuration.init(asciiTrimmedAtStart:)))
        case .schedule: Self.fill(&schedule, Self.schedule(from: &cursor))
        case .locations: Self.append(from: &cursor, to: &locations, Self.location)
        case .completions: Self.append(from: &cursor, to: &completions, Self.date)
        }
    }

    /// Appends to `list` each element of the array before `cursor` that
    /// `element` reads; `false` if it is not an array or `element` gives up.
    private static func append<Element>(
        from cursor: inout DirectJSONCursor, to list: inout [Element],
        _ element: (inout DirectJSONCursor) -> Element?
    ) -> Bool {
        cursor.elements { cursor in
            guard let value = element(&cursor) else { return false }
            // Room for a few at once: growing one by one from nothing
            // allocated up to three times for a task's handful.
            if list.capacity == 0 { list.reserveCapacity(4) }
            list.append(value)
            return true
        }
    }

    /// Puts the task in `slot`, if the tree reader would read the same one
    /// without a problem; `false` otherwise. The fields are moved into it,
    /// not copied.
    mutating func task(into slot: UnsafeMutablePointer<RecurringTask>) -> Bool {
        guard let id = id.take(), !id.isEmpty, let title = title.take(), let start, let schedule = schedule.take() else {
            return false
        }
        if let end, end <= start { return false }
        var places: [TaskLocation] = []
        if !locations.isEmpty { places.reserveCapacity(locations.count) }
        for (offset, location) in locations.enumerated() {
            guard let latitude = location.latitude, let longitude = location.longitude, let radius = location.radius,
                (-90...90).contains(latitude), (-180...180).contains(longitude), radius > 0, radius.isFinite
            else { return false }
            places.append(
                TaskLocation(
                    name: location.name ?? "\(id) \(offset + 1)", latitude: latitude, longitude: longitude, radius: radius))
        }
        slot.initialize(
            to: RecurringTask(
                id: id, title: title, list: list.take(), notes: notes.take(), assignee: assignee.take(),
                timeZone: zone.take() ?? ZoneNames.utc, start: start, end: end, schedule: schedule, locations: places,
                lead: lead ?? .oneDay, completions: completions))
        return true
    }

    /// A location object; `nil` for anything the tree reader must read.
    private static func location(from cursor: inout DirectJSONCursor) -> LocationFields? {
        var location = LocationFields()
        let read = cursor.members { name, cursor in
            if name.spells("lat") { return fill(&location.latitude, cursor.number()) }
            if name.spells("lon") { return fill(&location.longitude, cursor.number()) }
            if name.spells("radius") { return fill(&location.radius, cursor.number()) }
            if name.spells("name") { return fill(&location.name, cursor.plainString().map(text)) }
            return false
        }
        return read ? location : nil
    }

    /// Puts `value` in the empty `slot`; `false` if there is no value or
    /// the slot was filled before (a key written twice).
    private static func fill<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    /// A schedule object of exactly one kind, valid; `nil` for anything
    /// the tree reader must read.
    private static func schedule(from cursor: inout DirectJSONCursor) -> Schedule? {
        var schedule: Schedule?
        let read = cursor.members { kind, cursor in
            let body: Schedule? =
                if kind.spells("afterCompletion") {
                    durations("min", "max", from: &cursor).map { .afterCompletion(min: $0, max: $1) }
                } else if kind.spells("fixed") {
                    durations("every", nil, from: &cursor).map { .fixed(every: $0.0) }
                } else if kind.spells("weekdays") {
                    weekdays(from: &cursor)
                } else if kind.spells("once") {
                    onceDue(from: &cursor).map { .once(due: $0) }
                } else {
                    nil
                }
            return fill(&schedule, body)
        }
        guard read, let schedule, (try? schedule.validate()) != nil else { return nil }
        return schedule
    }

    /// An object of the durations `first` and `second` (when given), each
    /// once and nothing else; with no `second`, `first` twice.
    private static func durations(
        _ first: StaticString, _ second: StaticString?, from cursor: inout DirectJSONCursor
    ) -> (CalendarDuration, CalendarDuration)? {
        var one: CalendarDuration?
        var other: CalendarDuration?
        let read = cursor.members { name, cursor in
            let duration = cursor.plainString().flatMap { CalendarDuration(asciiTrimmedAtStart: $0) }
            if name.spells(first) { return fill(&one, duration) }
            if let second, name.spells(second) { return fill(&other, duration) }
            return false
        }
        guard read, let one else { return nil }
        guard second != nil else { return (one, one) }
        return other.map { (one, $0) }
    }

    /// A `weekdays` object: `days`, an array of day names, and `at`.
    private static func weekdays(from cursor: inout DirectJSONCursor) -> Schedule? {
        var days: Set<Weekday>?
        var at: TimeOfDay?
        let read = cursor.members { name, cursor in
            if name.spells("days") {
                // The days as bits, then the set of them that all share.
                var bits = 0
                let read = cursor.elements { cursor in
                    guard let day = cursor.plainString().flatMap({ Weekday(asciiName: $0) }) else { return false }
                    bits |= 1 << (day.rawValue - 1)
                    return true
                }
                return read && fill(&days, Weekday.sets[bits])
            }
            if name.spells("at") { return fill(&at, cursor.plainString().flatMap { TimeOfDay(asciiTrimmed: $0) }) }
            return false
        }
        guard read, let days, let at else { return nil }
        return .weekdays(days, at: at)
    }

    /// A `once` object: its `due` date.
    private static func onceDue(from cursor: inout DirectJSONCursor) -> Date? {
        var due: Date?
        let read = cursor.members { name, cursor in name.spells("due") && fill(&due, date(from: &cursor)) }
        return read ? due : nil
    }

    /// The text of UTF-8 bytes that the cursor checked. Made in place: a
    /// name of up to 15 ASCII bytes (most ids and titles) becomes a small
    /// string after one check for ASCII, where `String(decoding:as:)` took
    /// 180 instructions through its path for text that may need repair.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { text in
            guard let source = bytes.baseAddress, let target = text.baseAddress else { return 0 }
            target.update(from: source, count: bytes.count)
            return bytes.count
        }
    }

    /// The date of the RFC 3339 string with no blanks around it that comes
    /// next. Its commonest form, whole seconds in UTC, is read where it
    /// lies, without a scan for the string's end.
    private static func date(from cursor: inout DirectJSONCursor) -> Date? {
        let time =
            cursor.string(ofLength: 20, RFC3339.parseWholeSeconds) ?? cursor.plainString().flatMap { RFC3339.parse(utf8: $0) }
        return time.map { Date(timeIntervalSince1970: $0.secondsSince1970) }
    }
}
