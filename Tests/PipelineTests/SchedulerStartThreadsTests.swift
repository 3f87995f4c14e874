import Foundation
import Pipeline
import Recurrence
import TestSupport
import Testing

/// When the clock starts, the scheduler works out every task's cycle in
/// pieces on its ``NotificationScheduler/threads``, each piece in calendars
/// of its own: what it says then, and at every later stop (which reads the
/// states the start left), must not depend on the number of threads.
@Suite("Notification scheduler: the clock's start on several threads")
struct SchedulerStartThreadsTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"]
        .map { TimeZone(identifier: $0)! }

    /// Tasks of every schedule in several zones, many overdue at `start`,
    /// some with completions on the way, an end, or an id given twice.
    static func tasks(count: Int, start: Date, random: inout SeededRandom) -> [RecurringTask] {
        let day = 86_400.0
        return (0..<count).map { index in
            let zone = zones[Int(random.uniform(0, Double(zones.count)))]
            let units: [CalendarDuration.Unit] = [.hours, .days, .weeks, .months]
            let unit = units[Int(random.uniform(0, Double(units.count)))]
            let schedule: Schedule
            switch Int(random.uniform(0, 4)) {
            case 0:
                schedule = .afterCompletion(
                    min: .init(Int(random.uniform(1, 4)), unit), max: .init(Int(random.uniform(4, 9)), unit))
            case 1: schedule = .fixed(every: .init(Int(random.uniform(1, 6)), unit))
            case 2:
                schedule = .weekdays(
                    Set(Weekday.allCases.filter { _ in random.uniform(0, 1) < 0.4 } + [.wednesday]),
                    at: TimeOfDay(hour: Int(random.uniform(0, 24)), minute: Int(random.uniform(0, 60))))
            default: schedule = .once(due: start.addingTimeInterval(random.uniform(-20 * day, 40 * day)))
            }
            let taskStart = start.addingTimeInterval(random.uniform(-90 * day, 10 * day))
            let completions = (0..<Int(random.uniform(0, 4))).map { _ in
                taskStart.addingTimeInterval(random.uniform(0, 120 * day))
            }
            return RecurringTask(
                id: index % 97 == 5 ? "t\(index - 1)" : "t\(index)", title: "Task \(index)", timeZone: zone, start: taskStart,
                end: random.uniform(0, 1) < 0.1 ? taskStart.addingTimeInterval(random.uniform(60 * day, 200 * day)) : nil,
                schedule: schedule, lead: .init(Int(random.uniform(1, 30)), .hours), completions: completions)
        }
    }

    /// `start`, then stops a minute to 6 hours apart for 60 days.
    static func stops(from start: Date, random: inout SeededRandom) -> [Date] {
        var stops = [start]
        while stops.last! < start.addingTimeInterval(60 * 86_400) {
            stops.append(stops.last!.addingTimeInterval(random.uniform(60, 6 * 3600)))
        }
        return stops
    }

    /// Everything a scheduler of `tasks` on `threads` says at `stops`, as text.
    static func outputs(
        of tasks: [RecurringTask], threads: Int, stops: [Date], settings: NotificationScheduler.Settings
    )
        -> [String]
    {
        var scheduler = NotificationScheduler(tasks: tasks, settings: settings)
        scheduler.threads = threads
        return stops.flatMap { scheduler.advance(to: $0).map(said) }
    }

    /// Where `said` first differs from `expected`, as text; `nil` when
    /// the two are the same.
    static func difference(_ said: [String], from expected: [String]) -> String? {
        if let first = zip(expected, said).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            return "output \(first.offset): \(first.element.1) instead of \(first.element.0)"
        }
        return said.count == expected.count ? nil : "\(said.count) outputs instead of \(expected.count)"
    }

    /// `output` as text: its task, times and cause.
    static func said(_ output: SchedulerOutput) -> String {
        switch output {
        case .notify(let notification):
            "\(notification.taskID) \(notification.time.timeIntervalSince1970) due \(notification.due.timeIntervalSince1970) "
                + "window \(notification.windowStart.timeIntervalSince1970)"
        case .suppress(let suppression):
            "\(suppression.taskID) \(suppression.time.timeIntervalSince1970) \(suppression.cause)"
        }
    }

    @Test("seeded: 6 000 tasks, ids twice or all distinct, 60 days of stops, on 1, 2 and 5 threads, with a pending limit too")
    func sameOnAnyThreads() {
        let seed = SeededRandom.testSeed(default: 29)
        print("SchedulerStartThreadsTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_711_800_000)  // 2024-03-30, before Europe's change of clocks
        let tasks = Self.tasks(count: 6_000, start: start, random: &random)
        let stops = Self.stops(from: start, random: &random)
        var distinct = tasks
        for index in distinct.indices { distinct[index].id = "t\(index)" }
        let lists = [tasks, distinct]
        let settings = [NotificationScheduler.Settings(), NotificationScheduler.Settings(pendingLimit: 64)]
        for (tasks, settings) in lists.flatMap({ tasks in settings.map { (tasks, $0) } }) {
            let one = Self.outputs(of: tasks, threads: 1, stops: stops, settings: settings)
            #expect(one.count > 6_000)
            for threads in [2, 5] {
                let many = Self.outputs(of: tasks, threads: threads, stops: stops, settings: settings)
                let difference = Self.difference(many, from: one)
                #expect(
                    difference == nil,
                    "\(threads) threads, pending limit \(String(describing: settings.pendingLimit)): \(difference ?? "")")
            }
        }
    }
}
