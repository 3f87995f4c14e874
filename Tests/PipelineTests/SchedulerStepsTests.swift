import Foundation
import Pipeline
import Recurrence
import TestSupport
import Testing

/// Due notifications fire at their own time, so they do not depend on how
/// often the clock stops on its way: what the scheduler remembers between
/// stops (a task's cycle, its next completion) must not change them.
@Suite("Notification scheduler: the clock's steps")
struct SchedulerStepsTests {
    @Test("seeded: completions, on and between the clock's stops; every stop against every tenth")
    func duesDoNotDependOnTheStops() {
        let seed = SeededRandom.testSeed(default: 23)
        print("SchedulerStepsTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
        let day = 86_400.0
        var completionTimes: [Date] = []
        let tasks = (0..<400).map { index in
            let completions = (0..<Int(random.uniform(0, 7))).map { _ in
                // On whole hours now and then, so that stops fall on them.
                let offset = random.uniform(0, 60 * day)
                return start.addingTimeInterval(random.uniform(0, 1) < 0.3 ? (offset / 3600).rounded() * 3600 : offset)
            }
            completionTimes += completions
            let schedule: Schedule =
                random.uniform(0, 1) < 0.5
                ? .afterCompletion(min: .init(Int(random.uniform(1, 5)), .days), max: .init(Int(random.uniform(5, 12)), .days))
                : .fixed(every: .init(Int(random.uniform(1, 10)), .days))
            return RecurringTask(
                id: "t\(index)", title: "T", start: start.addingTimeInterval(random.uniform(-5 * day, 5 * day)),
                end: random.uniform(0, 1) < 0.1 ? start.addingTimeInterval(random.uniform(10 * day, 50 * day)) : nil,
                schedule: schedule, completions: completions)
        }
        // Stops every few minutes to hours, and on each completion, a
        // second before it and a second after it.
        var stops: [Date] = []
        var clock = start.addingTimeInterval(-6 * day)
        while clock < start.addingTimeInterval(70 * day) {
            stops.append(clock)
            clock = clock.addingTimeInterval(random.uniform(60, 4 * 3600))
        }
        for time in completionTimes { stops += [time.addingTimeInterval(-1), time, time.addingTimeInterval(1)] }
        stops.sort()
        let everyStop = dues(of: tasks, stoppingAt: stops)
        let everyTenth = dues(
            of: tasks, stoppingAt: stops.enumerated().filter { $0.offset % 10 == 0 }.map(\.element) + [stops.last!])
        #expect(everyStop.count > 1_000)
        #expect(everyStop == everyTenth)
    }

    /// The due notifications of a scheduler of `tasks` whose clock stops at
    /// `stops`, as text.
    private func dues(of tasks: [RecurringTask], stoppingAt stops: [Date]) -> [String] {
        var scheduler = NotificationScheduler(tasks: tasks)
        var fired: [String] = []
        for stop in stops {
            for output in scheduler.advance(to: stop) {
                guard case .notify(let notification) = output else { continue }
                fired.append(
                    "\(notification.taskID) \(notification.time.timeIntervalSince1970) \(notification.due.timeIntervalSince1970)")
            }
        }
        return fired
    }
}
