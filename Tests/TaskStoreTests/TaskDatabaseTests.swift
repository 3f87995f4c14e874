import Foundation
import GRDB
import GeoCore
import Pipeline
import Recurrence
import TaskStore
import TestSupport
import Testing

func at(_ text: String) -> Date {
    do { return try RFC3339Text.date(text) } catch { preconditionFailure("bad test date \(text)") }
}

func temporaryDatabasePath() -> String {
    temporaryDirectory("repeat-store") + "/nested/repeat.sqlite"
}

let catMedicine = RecurringTask(
    id: "cat-medicine", title: "Buy cat medicine", list: "Pets", notes: "the green box", assignee: "phone",
    timeZone: TimeZone(identifier: "Europe/Berlin")!, start: at("2025-01-06T09:00:00+01:00"),
    end: at("2027-01-01T00:00:00Z"), schedule: .afterCompletion(min: .init(10, .weeks), max: .init(14, .weeks)),
    locations: [
        TaskLocation(name: "Pharmacy", latitude: 52.5163, longitude: 13.3777, radius: 150),
        TaskLocation(name: "Vet", latitude: 52.53, longitude: 13.41, radius: 80),
    ],
    lead: .init(2, .days), completions: [at("2025-03-20T17:45:00+01:00")])

/// The cat medicine's completion records, but for their row ids and when
/// the store learned of them.
func closed(_ store: TaskDatabase) throws -> [CompletionRecord] {
    try store.history(id: "cat-medicine").map {
        var record = $0
        record.id = nil
        record.recordedAt = .distantPast
        return record
    }
}

@Suite("Task database")
struct TaskDatabaseTests {
    @Test("the frozen migration is applied")
    func migrations() throws {
        let store = try TaskDatabase.inMemory()
        #expect(try store.appliedMigrations() == ["v1 tasks, locations, completions, notification log", "v2 place book"])
    }

    @Test(
        "every schedule kind round-trips with all fields",
        arguments: [
            Schedule.once(due: at("2025-05-01T12:00:00Z")),
            .afterCompletion(min: .init(10, .weeks), max: .init(14, .weeks)),
            .fixed(every: .init(1, .months)),
            .weekdays([.monday, .wednesday, .friday], at: TimeOfDay(hour: 18, minute: 0)),
        ])
    func roundTrip(schedule: Schedule) throws {
        let store = try TaskDatabase.inMemory()
        var task = catMedicine
        task.schedule = schedule
        try store.add(task)
        let loaded = try store.task(id: task.id)
        #expect(loaded == task)
    }

    @Test("an import with a clashing id imports nothing")
    func atomicImport() throws {
        let store = try TaskDatabase.inMemory()
        try store.add(catMedicine)
        var other = catMedicine
        other.id = "bins"
        #expect(throws: StoreError.duplicateTask("cat-medicine")) {
            try store.importTasks([other, catMedicine], replace: false)
        }
        #expect(try store.tasks().map(\.id) == ["cat-medicine"])
        let counts = try store.importTasks([other, catMedicine], replace: true)
        #expect(counts.added == 1 && counts.replaced == 1)
        #expect(try store.tasks().map(\.id) == ["bins", "cat-medicine"])
        #expect(try store.tasks(list: "Pets").count == 2)
        #expect(try store.tasks(list: "Home").isEmpty)
    }

    @Test("seeded: every task read at once, or a list's, is the task read by its id: places in order, completions by time")
    func allTasksAsEachTask() throws {
        let seed = SeededRandom.testSeed(default: 61)
        print("TaskDatabaseTests.allTasksAsEachTask seed \(seed)")
        var random = SeededRandom(seed: seed)
        let store = try TaskDatabase.inMemory()
        let lists: [String?] = [nil, "Pets", "Home"]
        for index in 0..<300 {
            var task = catMedicine
            // Ids whose order is not the order they were added in.
            task.id = "task-\((index * 37) % 300)"
            task.list = lists[index % lists.count]
            task.locations = (0..<Int(random.next() % 4)).map { place in
                TaskLocation(
                    name: "place \(3 - place) of \(task.id)", latitude: random.uniform(-80, 80),
                    longitude: random.uniform(-170, 170), radius: random.uniform(10, 500))
            }
            task.setCompletions([])
            try store.add(task)
            // Done at times out of order, so that the rows' order is not the times'.
            for _ in 0..<Int(random.next() % 4) {
                let day = Double(random.next() % 400)
                try store.complete(id: task.id, at: at("2025-01-10T00:00:00Z").addingTimeInterval(day * 86_400))
            }
        }
        let each = try (0..<300).map { try store.task(id: "task-\($0)") }.sorted { $0.id < $1.id }
        #expect(each.contains { $0.locations.count == 3 } && each.contains { $0.completions.count == 3 })
        #expect(try store.tasks() == each)
        for list in ["Pets", "Home"] {
            #expect(try store.tasks(list: list) == each.filter { $0.list == list })
        }
        #expect(try store.tasks(list: "Garden").isEmpty)
    }

    @Test("completing records the cycle it closed, in the history")
    func completeAndHistory() throws {
        let store = try TaskDatabase.inMemory()
        try store.add(catMedicine)
        // The imported completion closed cycle 0 (due 2025-04-14 09:00 CEST = 07:00Z).
        // Done again on 2025-06-20: closes cycle 1, window 2025-05-29 15:45Z, due 2025-06-26 15:45Z.
        let record = try store.complete(id: "cat-medicine", at: at("2025-06-20T10:00:00Z"))
        #expect(record.cycle == 1)
        #expect(record.due == at("2025-06-26T15:45:00Z"))
        #expect(record.windowStart == at("2025-05-29T15:45:00Z"))
        let history = try store.history(id: "cat-medicine")
        #expect(history.map(\.completedAt) == [at("2025-03-20T16:45:00Z"), at("2025-06-20T10:00:00Z")])
        #expect(history.first?.due == at("2025-04-14T07:00:00Z"))
        #expect(try store.task(id: "cat-medicine").completions.count == 2)
        #expect(throws: StoreError.taskNotFound("dog")) { try store.complete(id: "dog", at: Date()) }
    }

    @Test("a completion entered after the fact, before others, gives the history a file of the same completions gives")
    func completionBeforeOthers() throws {
        let store = try TaskDatabase.inMemory()
        try store.add(catMedicine)
        let later = [at("2025-06-20T10:00:00Z"), at("2025-09-30T08:00:00Z")]
        for time in later { try store.complete(id: "cat-medicine", at: time) }
        // Forgotten, and entered last: it closes cycle 1, so the two after it close cycles 2 and 3.
        let forgotten = at("2025-05-01T12:00:00Z")
        let record = try store.complete(id: "cat-medicine", at: forgotten)
        #expect(record.cycle == 1)

        let imported = try TaskDatabase.inMemory()
        var whole = catMedicine
        whole.setCompletions(catMedicine.completions + later + [forgotten])
        try imported.add(whole)
        #expect(try closed(store) == closed(imported))
        #expect(try store.history(id: "cat-medicine").map(\.cycle) == [0, 1, 2, 3])
        // Cycle 2 counts from the forgotten completion: due 14 weeks after it.
        #expect(try store.history(id: "cat-medicine")[2].due == at("2025-08-07T12:00:00Z"))
    }

    @Test("taking a completion back gives the history a file without it gives; a record gone or another task's is refused")
    func completionTakenBack() throws {
        let store = try TaskDatabase.inMemory()
        try store.add(catMedicine)
        let later = [at("2025-05-01T12:00:00Z"), at("2025-06-20T10:00:00Z"), at("2025-09-30T08:00:00Z")]
        for time in later { try store.complete(id: "cat-medicine", at: time) }
        let taken = try #require(store.history(id: "cat-medicine").first { $0.completedAt == later[0] }?.id)
        try store.removeCompletion(recordID: taken, of: "cat-medicine")

        let imported = try TaskDatabase.inMemory()
        var whole = catMedicine
        whole.setCompletions(catMedicine.completions + later.dropFirst())
        try imported.add(whole)
        #expect(try closed(store) == closed(imported))
        #expect(try store.history(id: "cat-medicine").map(\.cycle) == [0, 1, 2])
        #expect(try store.task(id: "cat-medicine").completions == whole.completions)

        #expect(throws: StoreError.completionGone("cat-medicine")) {
            try store.removeCompletion(recordID: taken, of: "cat-medicine")
        }
        var other = catMedicine
        other.id = "dog-food"
        try store.add(other)
        let dogs = try #require(store.history(id: "dog-food").first?.id)
        #expect(throws: StoreError.completionGone("cat-medicine")) {
            try store.removeCompletion(recordID: dogs, of: "cat-medicine")
        }
        #expect(try store.history(id: "dog-food").count == 1)
        #expect(throws: StoreError.taskNotFound("dog")) { try store.removeCompletion(recordID: dogs, of: "dog") }
    }

    @Test("edit keeps completions; remove cascades but keeps the notification log")
    func editAndRemove() throws {
        let store = try TaskDatabase.inMemory()
        try store.add(catMedicine)
        var edited = try store.task(id: "cat-medicine")
        edited.title = "Cat medicine (large)"
        edited.locations = [edited.locations[0]]
        try store.update(edited)
        let loaded = try store.task(id: "cat-medicine")
        #expect(loaded.title == "Cat medicine (large)")
        #expect(loaded.locations.count == 1)
        #expect(loaded.completions.count == 1)
        try store.log(
            NotificationRecord(
                taskID: "cat-medicine", kind: .location, firedAt: at("2025-06-01T10:00:00Z"),
                title: "Cat medicine", region: "Pharmacy", device: "phone", distance: 42,
                recordedAt: Date()))
        try store.remove(id: "cat-medicine")
        #expect(throws: StoreError.taskNotFound("cat-medicine")) { try store.task(id: "cat-medicine") }
        let log = try store.notifications()
        #expect(log.count == 1 && log[0].taskID == nil && log[0].region == "Pharmacy")
        // A reminder of the removed task that was already on its way is kept the same way, not refused.
        let late = try store.log(
            NotificationRecord(
                taskID: "cat-medicine", kind: .due, firedAt: at("2025-06-02T10:00:00Z"), title: "Cat medicine",
                recordedAt: Date()))
        #expect(late.taskID == nil)
        #expect(try store.notifications().count == 2)
    }

    @Test("the schema rejects what the core cannot read")
    func constraints() throws {
        let path = temporaryDatabasePath()
        _ = try TaskDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let bad: [String] = [
                "INSERT INTO task (id, title, time_zone, start_at, schedule_kind, lead, created_at) VALUES ('x', 'X', 'UTC', 0, 'monthly', '1d', 0)",
                "INSERT INTO task (id, title, time_zone, start_at, schedule_kind, lead, created_at) VALUES ('x', 'X', 'UTC', 0, 'fixed', '1d', 0)",
                "INSERT INTO task (id, title, time_zone, start_at, end_at, schedule_kind, every, lead, created_at) VALUES ('x', 'X', 'UTC', 10, 5, 'fixed', '1d', '1d', 0)",
                "INSERT INTO completion (task_id, completed_at, recorded_at) VALUES ('nobody', 0, 0)",
                "INSERT INTO location (task_id, position, name, latitude, longitude, radius) VALUES ('nobody', 0, 'p', 0, 0, 10)",
            ]
            for sql in bad {
                #expect(throws: DatabaseError.self, "\(sql)") { try db.execute(sql: sql) }
            }
        }
    }

    @Test("concurrent completions from two connections both land (WAL, busy timeout)")
    func concurrentCompletions() async throws {
        let path = temporaryDatabasePath()
        try TaskDatabase(path: path).add(catMedicine)
        let times = (0..<40).map { at("2025-06-01T00:00:00Z").addingTimeInterval(Double($0) * 3600) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for half in [0, 1] {
                group.addTask {
                    let store = try TaskDatabase(path: path)  // its own connection pool
                    for (index, time) in times.enumerated() where index % 2 == half {
                        try store.complete(id: "cat-medicine", at: time)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try TaskDatabase(path: path).history(id: "cat-medicine").count == 41)
    }

    @Test("default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(
            TaskDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"])
                == "/x/data/repeat/repeat.sqlite")
        #expect(TaskDatabase.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/repeat/repeat.sqlite")
    }

    @Test("a path that cannot be a database is reported, not crashed on")
    func unusablePath() {
        #expect(throws: StoreError.self) { try TaskDatabase(path: "/proc/version") }
    }
}

/// The place book: `place import`, `place list`, `place rm`.
@Suite("The place book")
struct PlaceBookTests {
    @Test("import adds, and updates a name already there (without case or accents); rm by name as compared")
    func importUpdateRemove() throws {
        let store = try TaskDatabase.inMemory()
        let pharmacy = NamedPlace(name: "Apotheke Süd", centre: Coordinate(latitude: 48.1, longitude: 11.5), radius: 100)
        let vet = NamedPlace(name: "Tierarzt", centre: Coordinate(latitude: 48.2, longitude: 11.6), radius: 60)
        #expect(try store.importPlaces([pharmacy, vet], source: "a.gpx") == TaskDatabase.PlaceImport(added: 2, updated: 0))
        let moved = NamedPlace(name: "APOTHEKE SUD", centre: Coordinate(latitude: 48.11, longitude: 11.51), radius: 80)
        #expect(try store.importPlaces([moved], source: "b.csv") == TaskDatabase.PlaceImport(added: 0, updated: 1))
        #expect(try store.places() == [moved, vet])
        #expect(try store.removePlace(named: "apotheke süd"))
        #expect(try !store.removePlace(named: "apotheke süd"))
        #expect(try store.places() == [vet])
        #expect(try store.appliedMigrations().last == "v2 place book")
    }
}
