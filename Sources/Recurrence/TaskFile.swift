import Foundation
import GeoCore

/// A problem in a tasks file, located by task and field.
public struct TaskFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The task's position in the `tasks` array, if the problem is in a task.
    public var index: Int?
    /// The task's id, when it has one.
    public var taskID: String?
    /// The field path, e.g. `schedule.afterCompletion.min`.
    public var field: String?
    /// What is wrong and how to fix it.
    public var message: String

    /// `task "cat-medicine" (tasks[0]), field "lead": "banana" is not a duration: …`
    public var description: String {
        var parts: [String] = []
        if let index {
            parts.append(taskID.map { "task \"\($0)\" (tasks[\(index)])" } ?? "tasks[\(index)]")
        }
        if let field { parts.append("field \"\(field)\"") }
        return parts.isEmpty ? message : parts.joined(separator: ", ") + ": " + message
    }
}

/// Reads the tasks file format of DESIGN.md:
///
/// ```json
/// {"tasks": [{"id": "cat-medicine", "title": "Buy cat medicine", "list": "Pets",
///   "timeZone": "Europe/Berlin", "start": "2025-01-06T09:00:00+01:00",
///   "schedule": {"afterCompletion": {"min": "10w", "max": "14w"}}, "lead": "24h",
///   "locations": [{"name": "Pharmacy", "lat": 52.5163, "lon": 13.3777, "radius": 150}],
///   "completions": ["2025-03-20T17:45:00+01:00"]}]}
/// ```
///
/// Other schedules: `{"fixed": {"every": "2w"}}`, `{"weekdays": {"days":
/// ["mon","wed","fri"], "at": "18:00"}}`, `{"once": {"due": "…"}}`. Optional
/// fields: `list`, `notes`, `assignee`, `timeZone` (default UTC), `end`,
/// `lead` (default 24h), `locations`, `completions`.
public enum TaskFile {
    /// Decodes every task, or throws the first problem; a file with one bad
    /// task yields no tasks at all. Tasks are read on up to `jobs` threads;
    /// the tasks and the problem reported are the same for any `jobs`.
    ///
    /// `reading` chooses how: ``Reading/direct`` (the default) and
    /// ``Reading/tree`` give the same tasks and problems; the tree reader
    /// is the plain reference that tests hold the direct one to.
    public static func decode(_ data: Data, jobs: Int = 1, reading: Reading = .direct) throws -> [RecurringTask] {
        try decode(data, jobs: jobs, reading: reading, piecewiseMinimum: JSONScanner.piecewiseMinimum).tasks
    }

    /// Tasks with the position of each one's id among them.
    public typealias Indexed = (tasks: [RecurringTask], positions: NamePositions)

    /// ``decode(_:jobs:reading:)``'s tasks, with the position of each one's
    /// id: the table that the check for repeated ids made, for a caller
    /// that finds tasks by id (``NamePositions``, as recorded from the
    /// tasks in order) to take rather than make again.
    public static func decodeIndexed(_ data: Data, jobs: Int = 1) throws -> Indexed {
        try decode(data, jobs: jobs, reading: .direct, piecewiseMinimum: JSONScanner.piecewiseMinimum)
    }

    /// ``decodeIndexed(_:jobs:)`` read as `reading` says, checking and
    /// reading the tasks in pieces on `jobs` threads from
    /// `piecewiseMinimum` bytes on (tests check small files so).
    static func decode(_ data: Data, jobs: Int, reading: Reading, piecewiseMinimum: Int) throws -> Indexed {
        let pieces: [TaskPiece]
        do {
            let read = try JSONText.readArray(
                ofMember: "tasks", in: data, jobs: jobs, piecewiseMinimum: piecewiseMinimum
            ) { TaskPiece(reading: reading, bytes: $0) }
            guard read.root == .array, let readers = read.readers else {
                throw TaskFileError(message: "expected an object with a \"tasks\" array")
            }
            pieces = readers
        } catch let error as JSONTextError {
            throw TaskFileError(problemIn: error)
        }
        let indexed = try tasks(of: pieces, jobs: jobs)
        PiecesToFree(consume pieces).freeInBackground()
        return indexed
    }

    /// The tasks that the pieces of the `tasks` array read, in order, with
    /// the position of each id; or the first problem in the file's order: a
    /// duplicate id before a piece's problem is the first.
    ///
    /// The ids are recorded from the pieces while, with `jobs` above one,
    /// another thread touches each page of the array the tasks then move
    /// to (on up to `jobs` threads, each piece by one thread). Fresh
    /// memory faults at its first touch: for 100 000 tasks, 4 500 faults,
    /// which the moves paid for while the other threads waited.
    private static func tasks(of pieces: [TaskPiece], jobs: Int) throws -> Indexed {
        let counts = pieces.map(\.tasks.count)
        let ends = counts.reduce(into: [0]) { $0.append($0.last! + $1) }
        let (starts, count) = (Array(ends.dropLast()), ends.last!)
        var seen = NamePositions(capacity: count)
        let tasks = try [RecurringTask](unsafeUninitializedCapacity: count) { target, initialized in
            let touching = DispatchGroup()
            if jobs > 1, let base = target.baseAddress {
                let memory = JoinedTasks(base: base)
                DispatchQueue.global().async(group: touching) { memory.touchPages(count: count) }
            }
            defer { touching.wait() }
            for (index, count) in counts.enumerated() {
                let first = starts[index]
                if let repeated = seen.recordFirst(count, from: first, names: { pieces[index].tasks.id(at: $0) }) {
                    let position = first + repeated.offset
                    let taskID = pieces[index].tasks.id(at: repeated.offset)
                    throw TaskFileError(index: position, taskID: taskID, field: "id", message: "duplicate id")
                }
                if var problem = pieces[index].problem {
                    // Only a problem ends a piece's reading: its index counts
                    // from the piece's first task.
                    problem.index = problem.index.map { $0 + first }
                    throw problem
                }
            }
            touching.wait()
            if let base = target.baseAddress {
                let target = JoinedTasks(base: base)
                _ = parallelMap(count: pieces.count, jobs: jobs) { index in
                    pieces[index].tasks.moveAll(to: target.base + starts[index])
                }
            }
            initialized = count
        }
        return (tasks, seen)
    }

    /// How ``decode(_:jobs:reading:)`` reads each task.
    public enum Reading: Sendable {
        /// Straight from the text's bytes as they are checked, falling
        /// back to ``tree`` for a task it does not take (a problem, an
        /// escape, a `null`, a key written twice): 0.88G instructions for
        /// 100 000 tasks, the check included, against 1.3G for a check
        /// and then a read.
        case direct
        /// Each task as a tree of JSON values first.
        case tree
    }
}

/// Where ``TaskFile``'s `tasks(of:jobs:)` moves the tasks; each thread
/// writes its own piece's positions.
private struct JoinedTasks: @unchecked Sendable {
    let base: UnsafeMutablePointer<RecurringTask>

    /// Writes a byte on each page of the memory of `count` tasks, which
    /// must hold nothing yet, so that moving the tasks there faults no more.
    func touchPages(count: Int) {
        let bytes = UnsafeMutableRawPointer(base)
        let size = count * MemoryLayout<RecurringTask>.stride
        for offset in stride(from: 0, to: size, by: 4096) { bytes.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self) }
        // The last page, which the stride may step past.
        if size > 0 { bytes.storeBytes(of: 0, toByteOffset: size - 1, as: UInt8.self) }
    }
}

/// The pieces of a tasks file once their tasks have moved out, freed on
/// another thread: the room of 16 pieces, given back one by one, took
/// 3 ms while the run's other threads waited for this one.
private final class PiecesToFree: @unchecked Sendable {
    // Read and written by one thread at a time: the maker, then the one freeing.
    private var pieces: [TaskPiece]

    init(_ pieces: consuming [TaskPiece]) { self.pieces = pieces }

    func freeInBackground() { DispatchQueue.global().async { self.pieces = [] } }
}

/// Tasks in memory of their own, so that joining the pieces moves them
/// into the file's array. Copied out of arrays, every task's fields were
/// retained, and freeing the arrays released them all again: with 100 000
/// tasks, some 9 % of the time to read them.
///
/// Used by one thread at a time.
private final class TaskStorage: @unchecked Sendable {
    private var base: UnsafeMutablePointer<RecurringTask>
    private var capacity: Int
    /// How many tasks are held.
    private(set) var count = 0

    /// Room for `capacity` tasks, untouched until filled.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Adds `task` after the others.
    func append(_ task: consuming RecurringTask) {
        makeRoom()
        (base + count).initialize(to: task)
        count += 1
    }

    /// Adds the task that `make` puts in the memory it is given, after the
    /// others; nothing when it answers `false` (leaving the memory empty).
    func append(_ make: (UnsafeMutablePointer<RecurringTask>) -> Bool) -> Bool {
        makeRoom()
        guard make(base + count) else { return false }
        count += 1
        return true
    }

    /// Room for one more task.
    private func makeRoom() {
        guard count == capacity else { return }
        let larger = UnsafeMutablePointer<RecurringTask>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// The id of the task at `offset`.
    func id(at offset: Int) -> String { base[offset].id }

    /// Moves every task, in order, to the memory at `target`, which must
    /// have room and hold nothing; none is left here.
    func moveAll(to target: UnsafeMutablePointer<RecurringTask>) {
        target.moveInitialize(from: base, count: count)
        count = 0
    }
}

/// The tasks of one piece of the `tasks` array, read as the piece is
/// checked, up to its first problem.
private struct TaskPiece: JSONElementReader {
    let reading: TaskFile.Reading
    /// The tasks read, in order.
    let tasks: TaskStorage
    /// The problem that ended the reading; its index counts from the
    /// piece's first task.
    private(set) var problem: TaskFileError?
    private var zones = ZoneNames()

    /// A piece of about `bytes` bytes of text, read as `reading` says.
    init(reading: TaskFile.Reading, bytes: Int) {
        self.reading = reading
        // Room for a task every 128 bytes, never touched where not filled:
        // growing from a few, a piece touched twice the memory its tasks
        // take.
        tasks = TaskStorage(capacity: max(16, bytes / 128))
    }

    mutating func read(_ cursor: inout DirectJSONCursor) -> Bool {
        guard reading == .direct, problem == nil else { return false }
        return tasks.append { DirectTaskReader.read(from: &cursor, zones: &zones, into: $0) }
    }

    mutating func read(tree value: () throws -> JSONValue) throws {
        guard problem == nil else { return }
        let tree = try value()
        do {
            var reader = TaskReader(index: tasks.count, value: tree)
            tasks.append(try reader.read(zones: &zones))
        } catch let problem as TaskFileError {
            self.problem = problem
        } catch {
            problem = TaskFileError(problemIn: error)
        }
    }
}

extension TaskFileError {
    /// A text that is not JSON.
    fileprivate init(problemIn error: any Error) {
        self.init(message: "not valid JSON (\(error))")
    }
}

/// Reads one task object, naming the field of every problem.
private struct TaskReader {
    let index: Int
    let value: JSONValue
    var id: String?

    init(index: Int, value: JSONValue) {
        self.index = index
        self.value = value
    }

    func fail(_ field: String?, _ message: String) -> TaskFileError {
        TaskFileError(index: index, taskID: id, field: field, message: message)
    }

    /// The fields of a task, as the file spells them.
    static let taskFields = [
        "id", "title", "list", "notes", "assignee", "timeZone", "start", "end", "lead", "schedule", "locations", "completions",
    ]
    /// The fields of a location.
    static let locationFields = ["name", "lat", "lon", "radius"]

    /// A problem for the first key of `object` that is not in `known`,
    /// naming the known one it likely meant, else them all.
    func unknownKey(_ object: JSONObject, known: [String], path: String?) -> TaskFileError? {
        guard object.members.contains(where: { !known.contains($0.key) }),
            let key = object.keys.sorted().first(where: { !known.contains($0) })
        else { return nil }
        let field = path.map { "\($0).\(key)" } ?? key
        let synonyms = ["lng": "lon", "long": "lon", "longitude": "lon", "latitude": "lat", "timezone": "timeZone"]
        guard
            let suggestion = synonyms[key.lowercased()].flatMap({ known.contains($0) ? $0 : nil })
                ?? Spelling.likely(key, in: known)
        else { return fail(field, "unknown field; the fields here are \(known.joined(separator: ", "))") }
        return fail(field, "unknown field; did you mean \"\(suggestion)\"?")
    }

    mutating func read(zones: inout ZoneNames) throws -> RecurringTask {
        guard let object = value.object else { throw fail(nil, "expected an object") }
        id = object["id"]?.string
        if let problem = unknownKey(object, known: Self.taskFields, path: nil) { throw problem }
        id = try requiredString(object, "id")
        guard let id, !id.isEmpty else { throw fail("id", "must not be empty") }
        let zone =
            try optionalString(object, "timeZone").map { text in
                try wrap("timeZone") { try zones.zone(named: text) }
            } ?? ZoneNames.utc
        let start = try date(requiredString(object, "start"), "start")
        let end = try optionalString(object, "end").map { try date($0, "end") }
        if let end, end <= start { throw fail("end", "must be after start") }
        let lead = try optionalString(object, "lead").map { try duration($0, "lead") } ?? .oneDay
        let schedule = try readSchedule(object["schedule"])
        let locations = try readLocations(object["locations"])
        let completions = try readCompletions(object["completions"])
        return RecurringTask(
            id: id, title: try requiredString(object, "title"), list: try optionalString(object, "list"),
            notes: try optionalString(object, "notes"), assignee: try optionalString(object, "assignee"),
            timeZone: zone, start: start, end: end, schedule: schedule, locations: locations, lead: lead,
            completions: completions)
    }

    func readSchedule(_ value: JSONValue?) throws -> Schedule {
        let kinds = "afterCompletion, fixed, weekdays or once"
        guard let object = value?.object, let kind = object.members.first?.key,
            object.members.allSatisfy({ $0.key == kind }), let body = object[kind]
        else {
            throw fail("schedule", "expected an object with exactly one of \(kinds)")
        }
        guard let fields = body.object else { throw fail("schedule.\(kind)", "expected an object") }
        func path() -> String { "schedule.\(kind)" }
        let schedule: Schedule
        switch kind {
        case "afterCompletion":
            let min = try duration(requiredString(fields, "min", path()), "\(path()).min")
            let max = try duration(requiredString(fields, "max", path()), "\(path()).max")
            schedule = .afterCompletion(min: min, max: max)
        case "fixed":
            schedule = .fixed(every: try duration(requiredString(fields, "every", path()), "\(path()).every"))
        case "weekdays":
            guard let names = fields["days"]?.array?.compactMap(\.string), names.count == fields["days"]?.array?.count
            else { throw fail("\(path()).days", "expected an array of day names") }
            let days = try Set(names.map { name in try wrap("\(path()).days") { try Weekday(parsing: name) } })
            let at = try wrap("\(path()).at") { try TimeOfDay(parsing: requiredString(fields, "at", path())) }
            schedule = .weekdays(days, at: at)
        case "once":
            schedule = .once(due: try date(requiredString(fields, "due", path()), "\(path()).due"))
        default:
            throw fail("schedule", "unknown schedule \"\(kind)\": use \(kinds)")
        }
        try wrap("schedule") { try schedule.validate() }
        return schedule
    }

    func readLocations(_ value: JSONValue?) throws -> [TaskLocation] {
        guard let value else { return [] }
        guard let array = value.array else { throw fail("locations", "expected an array") }
        return try array.enumerated().map { offset, element in
            let path = "locations[\(offset)]"
            guard let object = element.object else { throw fail(path, "expected an object") }
            if let problem = unknownKey(object, known: Self.locationFields, path: path) { throw problem }
            let lat = try number(object, "lat", path), lon = try number(object, "lon", path)
            let radius = try number(object, "radius", path)
            guard (-90...90).contains(lat) else { throw fail("\(path).lat", "\(lat) is outside -90…90") }
            guard (-180...180).contains(lon) else { throw fail("\(path).lon", "\(lon) is outside -180…180") }
            guard radius > 0, radius.isFinite else { throw fail("\(path).radius", "must be a positive number of metres") }
            let name = try optionalString(object, "name", path) ?? "\(id ?? "task") \(offset + 1)"
            return TaskLocation(name: name, latitude: lat, longitude: lon, radius: radius)
        }
    }

    func readCompletions(_ value: JSONValue?) throws -> [Date] {
        guard let value else { return [] }
        guard let array = value.array else { throw fail("completions", "expected an array of date-times") }
        return try array.enumerated().map { offset, element in
            guard let text = element.string else { throw fail("completions[\(offset)]", "expected a date-time string") }
            return try date(text, "completions[\(offset)]")
        }
    }

    func requiredString(_ object: JSONObject, _ key: String, _ path: @autoclosure () -> String? = nil) throws -> String {
        guard let text = try optionalString(object, key, path()) else {
            throw fail(path().map { "\($0).\(key)" } ?? key, "is required")
        }
        return text
    }

    func optionalString(_ object: JSONObject, _ key: String, _ path: @autoclosure () -> String? = nil) throws -> String? {
        guard let value = object[key] else { return nil }
        if case .null = value { return nil }
        guard let text = value.string else { throw fail(path().map { "\($0).\(key)" } ?? key, "expected a string") }
        return text
    }

    func number(_ object: JSONObject, _ key: String, _ path: String) throws -> Double {
        guard let value = object[key]?.number else {
            throw fail("\(path).\(key)", object[key] == nil ? "is required" : "expected a number")
        }
        return value
    }

    // Field names are made only for a problem: building them for every
    // task cost more than reading its dates.

    func date(_ text: String, _ field: @autoclosure () -> String) throws -> Date {
        try wrap(field()) { try RFC3339Text.date(text) }
    }

    func duration(_ text: String, _ field: @autoclosure () -> String) throws -> CalendarDuration {
        try wrap(field()) { try CalendarDuration(parsing: text) }
    }

    func wrap<T>(_ field: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RecurrenceError {
            throw fail(field(), error.description)
        }
    }
}

/// The zones a tasks file names, each looked up once: a file of many tasks
/// names few zones, and a lookup by identifier costs far more than a
/// dictionary's.
struct ZoneNames {
    /// UTC, the zone of a task that names none.
    static let utc = TimeZone(identifier: "UTC")!

    private var zones: [String: TimeZone] = [:]
    /// The zone named last, by the bytes of its name: tasks in a row
    /// mostly name the same zone.
    private var last: (name: [UInt8], zone: TimeZone)?

    /// The zone whose identifier is the UTF-8 `name`; `nil` if there is none.
    mutating func zone(named name: UnsafeBufferPointer<UInt8>) -> TimeZone? {
        if let last, last.name.withUnsafeBufferPointer({ $0.hasSameBytes(as: name) }) { return last.zone }
        guard let zone = try? zone(named: String(decoding: name, as: UTF8.self)) else { return nil }
        last = (Array(name), zone)
        return zone
    }

    /// The zone `identifier` names (see ``TimeZone/iana(_:)``).
    mutating func zone(named identifier: String) throws -> TimeZone {
        if let zone = zones[identifier] { return zone }
        let zone = try TimeZone.iana(identifier)
        zones[identifier] = zone
        return zone
    }
}
