import GRDB

/// What can go wrong at the store's boundary, in the domain's words.
public enum StoreError: Error, Equatable, Sendable {
    /// No task has this id; `nearest` is the stored id it may have meant
    /// (the same but for case, or a typo away).
    case taskNotFound(String, nearest: String? = nil)
    /// A task with this id already exists.
    case duplicateTask(String)
    /// The completion asked for is no longer the task's (another process
    /// took it back first); the task's id.
    case completionGone(String)
    /// The database rejected a value (a CHECK or foreign key), with SQLite's words.
    case rejected(String)
    /// A stored row the recurrence core cannot read, with the reason.
    case corruptRow(String)
    /// The database file cannot be opened or written, with the reason.
    case unavailable(String)
    /// A read-only command found no store at this path.
    case missing(String)
    /// The file is not a Repeat task store: its path and what it is.
    case notAStore(String, reason: String)
}

extension StoreError: CustomStringConvertible {
    /// A sentence for the command line.
    public var description: String {
        switch self {
        case .taskNotFound(let id, let nearest?): return "no task \"\(id)\"; did you mean \"\(nearest)\"?"
        case .taskNotFound(let id, nil): return "no task \"\(id)\" (see `repeat-sim task list`)"
        case .duplicateTask(let id): return "a task \"\(id)\" already exists (use `task edit`, or `task import --replace`)"
        case .completionGone(let id):
            return "that completion of \"\(id)\" is no longer in the store (see `repeat-sim task history \(id)`)"
        case .rejected(let message): return "the store rejected the change: \(message)"
        case .corruptRow(let message): return "a stored task cannot be read: \(message)"
        case .unavailable(let message): return "the task database cannot be used: \(message)"
        case .missing(let path):
            return
                "no task store at \(path) yet: add a task (`repeat-sim task add …`) or import some (`repeat-sim task import FILE`)"
        case .notAStore(let path, let reason): return "\(path) is not a Repeat task store (\(reason))"
        }
    }
}

extension StoreError {
    /// Maps GRDB's errors onto the domain's; other errors pass through.
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                throw StoreError.rejected(error.message ?? "constraint failed")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                throw StoreError.unavailable("another process holds the store and did not let go in time; try again")
            default:
                // SQLite's own words, never the SQL statement GRDB's description adds.
                throw StoreError.unavailable(error.message ?? "\(error.resultCode)")
            }
        }
    }
}
