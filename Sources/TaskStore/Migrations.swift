import GRDB

/// The store's schema, as named migrations.
///
/// A migration is frozen once it has shipped: never edit one, add the next
/// ("v2", …). Dates are REAL seconds since 1970-01-01T00:00:00Z; durations
/// are their text form (`10w`, `24h`); CHECK constraints hold the rules
/// the recurrence core relies on, so no writer can store a task it cannot read.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 tasks, locations, completions, notification log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE task (
                        id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                        title TEXT NOT NULL CHECK (length(title) > 0),
                        list TEXT,
                        notes TEXT,
                        assignee TEXT,
                        time_zone TEXT NOT NULL CHECK (length(time_zone) > 0),
                        start_at REAL NOT NULL,
                        end_at REAL CHECK (end_at IS NULL OR end_at > start_at),
                        schedule_kind TEXT NOT NULL
                            CHECK (schedule_kind IN ('once', 'afterCompletion', 'fixed', 'weekdays')),
                        due_at REAL,
                        min_interval TEXT,
                        max_interval TEXT,
                        every TEXT,
                        weekdays TEXT,
                        time_of_day TEXT,
                        lead TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        CHECK (schedule_kind <> 'once' OR due_at IS NOT NULL),
                        CHECK (schedule_kind <> 'afterCompletion' OR (min_interval IS NOT NULL AND max_interval IS NOT NULL)),
                        CHECK (schedule_kind <> 'fixed' OR every IS NOT NULL),
                        CHECK (schedule_kind <> 'weekdays' OR (length(weekdays) > 0 AND time_of_day IS NOT NULL))
                    );
                    CREATE TABLE location (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        task_id TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE ON UPDATE CASCADE,
                        position INTEGER NOT NULL CHECK (position >= 0),
                        name TEXT NOT NULL,
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        radius REAL NOT NULL CHECK (radius > 0),
                        UNIQUE (task_id, position)
                    );
                    CREATE TABLE completion (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        task_id TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE ON UPDATE CASCADE,
                        completed_at REAL NOT NULL,
                        recorded_at REAL NOT NULL,
                        cycle INTEGER CHECK (cycle IS NULL OR cycle >= 0),
                        window_start REAL,
                        due_at REAL
                    );
                    CREATE INDEX completion_by_task ON completion (task_id, completed_at);
                    CREATE TABLE notification (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        task_id TEXT REFERENCES task(id) ON DELETE SET NULL ON UPDATE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('location', 'due')),
                        fired_at REAL NOT NULL,
                        title TEXT NOT NULL,
                        region TEXT,
                        device TEXT,
                        distance_m REAL CHECK (distance_m IS NULL OR distance_m >= 0),
                        window_start REAL,
                        due_at REAL,
                        recorded_at REAL NOT NULL
                    );
                    CREATE INDEX notification_by_task ON notification (task_id, fired_at);
                    """)
        }
        migrator.registerMigration("v2 place book") { db in
            try db.execute(
                sql: """
                    CREATE TABLE place (
                        name TEXT PRIMARY KEY NOT NULL CHECK (length(name) > 0),
                        name_key TEXT NOT NULL UNIQUE CHECK (length(name_key) > 0),
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        radius REAL NOT NULL CHECK (radius > 0),
                        source TEXT,
                        imported_at REAL NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
