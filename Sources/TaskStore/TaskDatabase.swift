import Foundation
import GRDB
import GeoCore
import Recurrence

/// Tasks, their places and completions, and the notification log, in SQLite.
///
/// One value over a GRDB `DatabaseWriter`: a `DatabasePool` in WAL mode on
/// disk (so a `task done` from another shell lands while a live replay
/// reads), or an in-memory `DatabaseQueue` for tests. Every operation that
/// must hold together — importing a file, completing a task and recording
/// its history — is one transaction.
public struct TaskDatabase: Sendable {
    private let writer: any DatabaseWriter

    /// Opens (creating the file if needed) the database at `path` and
    /// migrates it; with `createsFolder`, the folder too.
    ///
    /// Writers wait up to `busyTimeout` seconds for another process's
    /// transaction instead of failing.
    /// - Throws: ``StoreError/unavailable(_:)`` naming the file, or
    ///   ``StoreError/notAStore(_:reason:)`` for a file that is not one.
    public init(path: String, createsFolder: Bool = true, busyTimeout: TimeInterval = 10) throws {
        try Self.checkNamesAFile(path)
        let directory = (path as NSString).deletingLastPathComponent
        if createsFolder, !directory.isEmpty { try Self.makeFolder(directory) }
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            throw StoreError.unavailable("the folder \(directory) does not exist (create it first)")
        }
        // Two commands opening a new store at once: one creates and migrates
        // it while the other waits, then finds it made. The lock is the
        // folder's (flock, not the fcntl locks SQLite uses on the file), held
        // until the migrations are done.
        let folderLock = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if folderLock >= 0 { flock(folderLock, LOCK_EX) }
        defer {
            if folderLock >= 0 {
                flock(folderLock, LOCK_UN)
                close(folderLock)
            }
        }
        try Self.checkIsStore(path, allowsEmpty: true)
        // A new store is the owner's alone (0600); SQLite gives its -wal and
        // -shm files the database file's mode. O_EXCL: a file another
        // process created meanwhile is left as it is.
        let created = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        let pool = try Self.naming(path) { try DatabasePool(path: path, configuration: configuration) }
        // Another program's database (tables, none of Repeat's) is left alone.
        let foreign = try Self.naming(path) {
            try pool.read { db in
                try !db.tableExists("task")
                    && Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0 > 0
            }
        }
        if foreign { throw StoreError.notAStore(path, reason: "an SQLite database of another program") }
        try self.init(writer: pool, path: path)
    }

    /// Makes `folder` and the folders it is in that are missing, as
    /// `mkdir -p` does (0700: the store is the owner's alone).
    /// - Throws: ``StoreError/unavailable(_:)`` naming the folder that could
    ///   not be made and why (a home that is not the user's, a read-only disk).
    private static func makeFolder(_ folder: String) throws {
        var path = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o700) != 0 else { continue }
            let code = errno
            if code != EEXIST {
                throw StoreError.unavailable("the folder \(path) cannot be made: \(String(cString: strerror(code)))")
            }
        }
    }

    /// Opens the store at `path` for reading only: nothing is created or
    /// migrated, and a read-only file can be read.
    /// - Throws: ``StoreError/missing(_:)`` when there is no file,
    ///   ``StoreError/notAStore(_:reason:)`` for a file that is not a store.
    public init(readingFrom path: String) throws {
        try Self.checkNamesAFile(path)
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path) }
        try Self.checkIsStore(path, allowsEmpty: false)
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try Self.naming(path) { try DatabaseQueue(path: path, configuration: configuration) }
        let hasTasks = try Self.naming(path) { try queue.read { db in try db.tableExists("task") } }
        guard hasTasks else { throw StoreError.notAStore(path, reason: "an SQLite database without Repeat's tables") }
        writer = queue
    }

    /// Refuses an empty path and a folder's, which SQLite can only call
    /// "unable to open".
    private static func checkNamesAFile(_ path: String) throws {
        guard !path.isEmpty else { throw StoreError.unavailable("an empty path names no file") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let example = (path as NSString).appendingPathComponent("repeat.sqlite")
            throw StoreError.notAStore(path, reason: "a folder: name the store's file, e.g. \(example)")
        }
    }

    /// Refuses a file that is not an SQLite database (an empty one may
    /// become a store).
    private static func checkIsStore(_ path: String, allowsEmpty: Bool) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty, allowsEmpty { return }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreError.notAStore(path, reason: header.isEmpty ? "an empty file" : "not an SQLite database")
        }
    }

    /// Runs `body`, putting the file's path in front of an unavailable store's reason.
    private static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try StoreError.translating(body) } catch StoreError.unavailable(let reason) {
            throw StoreError.unavailable("\(path): \(reason)")
        }
    }

    /// An empty in-memory database, for tests and dry runs.
    public static func inMemory() throws -> TaskDatabase {
        try TaskDatabase(writer: DatabaseQueue())
    }

    private init(writer: any DatabaseWriter, path: String = ":memory:") throws {
        self.writer = writer
        try Self.naming(path) { try Migrations.migrator.migrate(writer) }
    }

    /// The default database path: `$XDG_DATA_HOME/repeat/repeat.sqlite`, else
    /// `~/.local/share/repeat/repeat.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return data + "/repeat/repeat.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/repeat/repeat.sqlite"
    }

    /// The names of the migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Migrations.migrator.appliedMigrations(db) }
    }

    // MARK: Tasks

    /// Adds a new task with its locations and completions.
    ///
    /// - Throws: ``StoreError/duplicateTask(_:)`` if the id is taken.
    public func add(_ task: RecurringTask, now: Date = Date()) throws {
        try write { db in try insert(task, db: db, now: now) }
    }

    /// Replaces a task's fields and locations, keeping its completions and
    /// creation time.
    public func update(_ task: RecurringTask) throws {
        try write { db in
            guard let existing = try TaskRow.fetchOne(db, key: task.id) else { throw Self.notFound(task.id, db) }
            try TaskRow(task, createdAt: Date(timeIntervalSince1970: existing.createdAt)).update(db)
            try LocationRow.filter(LocationRow.Columns.taskID == task.id).deleteAll(db)
            try insertLocations(of: task, db: db)
        }
    }

    /// Imports tasks all together or not at all.
    ///
    /// - Parameter replace: replace tasks whose id exists (their
    ///   completions become the file's); otherwise an existing id fails the
    ///   whole import.
    /// - Returns: how many tasks were added and replaced.
    @discardableResult
    public func importTasks(_ tasks: [RecurringTask], replace: Bool, now: Date = Date()) throws -> (added: Int, replaced: Int) {
        try write { db in
            var replaced = 0
            for task in tasks {
                if try Self.taskExists(task.id, db) {
                    guard replace else { throw StoreError.duplicateTask(task.id) }
                    try TaskRow.deleteOne(db, key: task.id)
                    replaced += 1
                }
                try insert(task, db: db, now: now)
            }
            return (tasks.count - replaced, replaced)
        }
    }

    /// Removes a task with its locations and completions; its notification
    /// log entries stay, detached.
    public func remove(id: String) throws {
        try write { db in
            guard try TaskRow.deleteOne(db, key: id) else { throw Self.notFound(id, db) }
        }
    }

    /// The task with this id, with its locations and completions.
    public func task(id: String) throws -> RecurringTask {
        try writer.read { db in
            guard let row = try TaskRow.fetchOne(db, key: id) else { throw Self.notFound(id, db) }
            return try load(row, db: db)
        }
    }

    /// Every task, or those of one list, ordered by id, or in the order
    /// they were added (`inOrderAdded`: a file's order, for one imported).
    public func tasks(list: String? = nil, inOrderAdded: Bool = false) throws -> [RecurringTask] {
        try writer.read { db in
            var request = TaskRow.order(inOrderAdded ? Column.rowID : TaskRow.Columns.id)
            if let list { request = request.filter(TaskRow.Columns.list == list) }
            let rows = try request.fetchAll(db)
            // The places and completions of them all in one query each: a
            // query per task compiled 200 000 statements for 100 000 tasks.
            let tasks = list == nil ? "" : "WHERE task_id IN (SELECT id FROM task WHERE list = ?)"
            let arguments: StatementArguments = list.map { [$0] } ?? []
            var locations: [String: [TaskLocation]] = [:]
            let locationRows = try Row.fetchCursor(
                db, sql: "SELECT task_id, name, latitude, longitude, radius FROM location \(tasks) ORDER BY task_id, position",
                arguments: arguments)
            while let row = try locationRows.next() {
                locations[row[0], default: []].append(
                    TaskLocation(name: row[1], latitude: row[2], longitude: row[3], radius: row[4]))
            }
            var completions: [String: [Date]] = [:]
            let completionRows = try Row.fetchCursor(
                db, sql: "SELECT task_id, completed_at FROM completion \(tasks) ORDER BY task_id, completed_at",
                arguments: arguments)
            while let row = try completionRows.next() {
                completions[row[0], default: []].append(Date(timeIntervalSince1970: row[1]))
            }
            return try rows.map { try $0.task(locations: locations[$0.id] ?? [], completions: completions[$0.id] ?? []) }
        }
    }

    // MARK: Completions

    /// Records that a task was done at `time`, with the cycle it closed, in
    /// one transaction. A completion dated before others changes the
    /// cycles those closed: their records are written anew.
    ///
    /// - Returns: the history record written.
    @discardableResult
    public func complete(id: String, at time: Date, now: Date = Date()) throws -> CompletionRecord {
        try write { db in
            guard let row = try TaskRow.fetchOne(db, key: id) else { throw Self.notFound(id, db) }
            var task = try load(row, db: db)
            let closing = task.cycle(at: time)
            var record = CompletionRecord(
                taskID: id, completedAt: time, recordedAt: now, cycle: closing?.number,
                windowStart: closing?.windowStart, due: closing?.due)
            try record.insert(db)
            task.setCompletions(task.completions + [time])
            try refreshCyclesClosed(after: time, in: task, db: db)
            return record
        }
    }

    /// Takes back one of a task's completions, in one transaction; the
    /// completions after it close other cycles now, and their records are
    /// written anew.
    ///
    /// - Parameter recordID: the completion's record, as ``history(id:)`` gives it.
    /// - Throws: ``StoreError/completionGone(_:)`` if the task has no such record.
    public func removeCompletion(recordID: Int64, of id: String) throws {
        try write { db in
            guard let row = try TaskRow.fetchOne(db, key: id) else { throw Self.notFound(id, db) }
            guard let record = try CompletionRecord.fetchOne(db, key: recordID), record.taskID == id else {
                throw StoreError.completionGone(id)
            }
            try record.delete(db)
            try refreshCyclesClosed(after: record.completedAt, in: load(row, db: db), db: db)
        }
    }

    /// A task's completions, oldest first.
    public func history(id: String) throws -> [CompletionRecord] {
        try writer.read { db in
            guard try Self.taskExists(id, db) else { throw Self.notFound(id, db) }
            return try CompletionRecord.filter(CompletionRecord.Columns.taskID == id)
                .order(CompletionRecord.Columns.completedAt, Column("id")).fetchAll(db)
        }
    }

    // MARK: Notification log

    /// Appends a notification to the log; one of a task that is no longer
    /// in the store is kept without its task (the returned record's `taskID` is `nil`).
    @discardableResult
    public func log(_ notification: NotificationRecord) throws -> NotificationRecord {
        try write { db in
            var record = notification
            // A task removed meanwhile (`task rm` while `live` runs): the
            // reminder was sent, so it is kept, unlinked as the removal
            // leaves the task's earlier ones.
            if let id = record.taskID, try !Self.taskExists(id, db) { record.taskID = nil }
            try record.insert(db)
            return record
        }
    }

    /// The latest notifications, newest first; of one task if given.
    public func notifications(taskID: String? = nil, limit: Int = 50) throws -> [NotificationRecord] {
        try writer.read { db in
            var request = NotificationRecord.order(Column("fired_at").desc, Column("id").desc).limit(limit)
            if let taskID { request = request.filter(Column("task_id") == taskID) }
            return try request.fetchAll(db)
        }
    }

    // MARK: Consistency

    /// What SQLite finds wrong with the file: `PRAGMA integrity_check`
    /// (pages, indexes, constraints) and `PRAGMA foreign_key_check`; empty
    /// when the store is consistent.
    public func integrityProblems() throws -> [String] {
        try writer.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                "table \(row[0] as String? ?? "?") row \(row[1] as Int64? ?? -1) refers to a missing \(row[2] as String? ?? "?") row"
            }
            return integrity + foreignKeys
        }
    }

    // MARK: Helpers

    /// Runs `body` in a write transaction; SQLite's errors in the store's words.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try StoreError.translating { try writer.write(body) }
    }

    /// Runs `body` in a read transaction; SQLite's errors in the store's words.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try StoreError.translating { try writer.read(body) }
    }

    /// Whether a task has this id, asked through a statement compiled once
    /// per connection: the query interface compiled its SQL anew for each
    /// task, a third of the time to import 100 000.
    private static func taskExists(_ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM task WHERE id = ?"), arguments: [id]) ?? false
    }

    /// ``StoreError/taskNotFound(_:nearest:)`` for `id`, naming the stored
    /// id that is the same but for case, or else one within a typo or two
    /// (ids are made from titles, `buy-cat-medicine`, and mistyped).
    private static func notFound(_ id: String, _ db: Database) -> StoreError {
        let ids = (try? String.fetchAll(db, sql: "SELECT id FROM task")) ?? []
        return .taskNotFound(id, nearest: Spelling.suggestion(for: id, in: ids, maximumDistance: max(2, id.count / 3)))
    }

    private func insert(_ task: RecurringTask, db: Database, now: Date) throws {
        if try Self.taskExists(task.id, db) { throw StoreError.duplicateTask(task.id) }
        try TaskRow(task, createdAt: now).insert(db)
        try insertLocations(of: task, db: db)
        for completion in task.completions {
            var record = CompletionRecord(
                taskID: task.id, completedAt: completion, recordedAt: now, cycle: nil, windowStart: nil, due: nil)
            if let closing = cycleClosed(by: completion, in: task) {
                record.cycle = closing.number
                record.windowStart = closing.windowStart
                record.due = closing.due
            }
            try record.insert(db)
        }
    }

    private func insertLocations(of task: RecurringTask, db: Database) throws {
        for (position, location) in task.locations.enumerated() {
            try LocationRow(
                id: nil, taskID: task.id, position: position, name: location.name, latitude: location.latitude,
                longitude: location.longitude, radius: location.radius
            ).insert(db)
        }
    }

    /// Writes anew the cycle each completion after `time` closed, as the
    /// task's completions (and its schedule now) make it.
    private func refreshCyclesClosed(after time: Date, in task: RecurringTask, db: Database) throws {
        let later = try CompletionRecord.filter(
            CompletionRecord.Columns.taskID == task.id && CompletionRecord.Columns.completedAt > time.timeIntervalSince1970
        ).fetchAll(db)
        for var record in later {
            let closing = cycleClosed(by: record.completedAt, in: task)
            record.cycle = closing?.number
            record.windowStart = closing?.windowStart
            record.due = closing?.due
            try record.update(db)
        }
    }

    /// The cycle a completion closed: the one in force just before it.
    private func cycleClosed(by completion: Date, in task: RecurringTask) -> Cycle? {
        var before = task
        before.setCompletions(task.completions.filter { $0 < completion })
        return before.cycle(at: completion)
    }

    private func load(_ row: TaskRow, db: Database) throws -> RecurringTask {
        let locations = try LocationRow.filter(LocationRow.Columns.taskID == row.id)
            .order(LocationRow.Columns.position).fetchAll(db).map(\.location)
        let completions = try Double.fetchAll(
            db, sql: "SELECT completed_at FROM completion WHERE task_id = ? ORDER BY completed_at", arguments: [row.id])
        return try row.task(locations: locations, completions: completions.map(Date.init(timeIntervalSince1970:)))
    }
}
