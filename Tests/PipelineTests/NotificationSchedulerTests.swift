import Foundation
import Pipeline
import Recurrence
import TestSupport
import Testing

private func at(_ text: String) -> Date {
    do { return try RFC3339Text.date(text) } catch { preconditionFailure("bad test date \(text)") }
}

/// Every 10–14 days from 2025-01-01 00:00Z: window 2025-01-11, due 2025-01-15.
private func flexible(_ id: String = "plants", completions: [String] = []) -> RecurringTask {
    RecurringTask(
        id: id, title: id.capitalized, start: at("2025-01-01T00:00:00Z"),
        schedule: .afterCompletion(min: .init(10, .days), max: .init(14, .days)), completions: completions.map(at))
}

private func kinds(_ outputs: [SchedulerOutput]) -> [String] {
    outputs.map { output in
        switch output {
        case .notify(let n): return "\(n.kind.rawValue) \(n.taskID) \(RFC3339Text.format(n.time))"
        case .suppress(let s): return "suppressed \(s.cause.reason) \(s.taskID) \(RFC3339Text.format(s.time))"
        }
    }
}

@Suite("Notification scheduler on the feed clock")
struct NotificationSchedulerTests {
    @Test("seeded: thousands of tasks, dues in every order, each fires once at its time, ties in list order")
    func manyTasksFireInTimeOrder() {
        let seed = SeededRandom.testSeed(default: 16)
        print("NotificationSchedulerTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let start = at("2025-01-01T00:00:00Z")
        // Dues on whole hours, so that many share an instant; ids repeat now and then (the first counts).
        let tasks = (0..<3_000).map { index in
            RecurringTask(
                id: "t\(index % 2_900)", title: "T", start: start,
                schedule: .once(due: start.addingTimeInterval(3600 * Double(Int(random.uniform(0, 500))))))
        }
        var scheduler = NotificationScheduler(tasks: tasks, settings: .init(pendingLimit: 3))
        var fired = kinds(scheduler.advance(to: start))
        var clock = start
        while clock < start.addingTimeInterval(3600 * 510) {
            clock = clock.addingTimeInterval(random.uniform(1, 20_000))
            fired += kinds(scheduler.advance(to: clock))
        }
        var expected: [String] = []
        let kept = tasks.prefix(2_900).enumerated().map { ($0.offset, $0.element) }
        var count = 0
        var instant: Date?
        for (_, task) in kept.sorted(by: { (dueTime($0.1), $0.0) < (dueTime($1.1), $1.0) }) {
            let time = dueTime(task)
            count = instant == time ? count + 1 : 1
            instant = time
            expected.append("\(count > 3 ? "suppressed pending-limit" : "due") \(task.id) \(RFC3339Text.format(time))")
        }
        #expect(fired == expected)
    }

    func dueTime(_ task: RecurringTask) -> Date {
        guard case .once(let due) = task.schedule else { preconditionFailure("once tasks only") }
        return due
    }

    @Test("a due time between two fixes fires at its own time, once")
    func dueBetweenFixes() {
        var scheduler = NotificationScheduler(tasks: [flexible()])
        #expect(scheduler.advance(to: at("2025-01-14T00:00:00Z")).isEmpty)
        #expect(kinds(scheduler.advance(to: at("2025-01-16T00:00:00Z"))) == ["due plants 2025-01-15T00:00:00Z"])
        #expect(scheduler.advance(to: at("2025-02-16T00:00:00Z")).isEmpty)
    }

    @Test("a task overdue at the first fix fires at the first fix")
    func overdueAtStart() {
        var scheduler = NotificationScheduler(tasks: [flexible()])
        #expect(kinds(scheduler.advance(to: at("2025-03-01T10:00:00Z"))) == ["due plants 2025-03-01T10:00:00Z"])
    }

    @Test("completions in the tasks apply as the clock passes them, one due per cycle")
    func completionsOnTheClock() {
        // Done 2025-01-12 → next due 2025-01-26; done 2025-01-30 (late, after the 01-26 due) → due 2025-02-13.
        var scheduler = NotificationScheduler(tasks: [flexible(completions: ["2025-01-12T00:00:00Z", "2025-01-30T00:00:00Z"])])
        #expect(kinds(scheduler.advance(to: at("2025-01-01T00:00:00Z"))).isEmpty)
        #expect(
            kinds(scheduler.advance(to: at("2025-03-01T00:00:00Z"))) == [
                "due plants 2025-01-26T00:00:00Z", "due plants 2025-02-13T00:00:00Z",
            ])
    }

    @Test("arrivals pass the gate: not-due, then notify, then cooldown")
    func arrivals() {
        var scheduler = NotificationScheduler(tasks: [flexible()])
        _ = scheduler.advance(to: at("2025-01-05T00:00:00Z"))
        let early = scheduler.arrival(taskID: "plants", at: at("2025-01-05T00:00:00Z"), region: "Shop", device: "a", distance: 12)
        #expect(early.map { kinds([$0]) } == ["suppressed not-due plants 2025-01-05T00:00:00Z"])
        let open = scheduler.arrival(taskID: "plants", at: at("2025-01-10T08:00:00Z"), region: "Shop", device: "a", distance: 12)
        guard case .notify(let notification) = open else { Issue.record("expected a notification"); return }
        #expect(notification.due == at("2025-01-15T00:00:00Z") && notification.region == "Shop")
        let again = scheduler.arrival(taskID: "plants", at: at("2025-01-10T12:00:00Z"), region: "Shop", device: "a", distance: 3)
        #expect(again.map { kinds([$0]) } == ["suppressed cooldown plants 2025-01-10T12:00:00Z"])
        #expect(
            scheduler.arrival(taskID: "nobody", at: at("2025-01-10T12:00:00Z"), region: nil, device: nil, distance: nil) == nil)
    }

    @Test("the pending limit lets only N dues fire at one instant")
    func pendingLimit() {
        let tasks = (0..<5).map { flexible("t\($0)") }
        var scheduler = NotificationScheduler(tasks: tasks, settings: .init(pendingLimit: 3))
        let outputs = kinds(scheduler.advance(to: at("2025-02-01T00:00:00Z")))
        #expect(
            outputs == [
                "due t0 2025-02-01T00:00:00Z", "due t1 2025-02-01T00:00:00Z", "due t2 2025-02-01T00:00:00Z",
                "suppressed pending-limit t3 2025-02-01T00:00:00Z", "suppressed pending-limit t4 2025-02-01T00:00:00Z",
            ])
    }

    @Test("many fixes, few events: the agenda gives the same answer as one big step")
    func stepsEqualOneJump() {
        let tasks = [
            flexible("a", completions: ["2025-01-12T00:00:00Z", "2025-02-20T00:00:00Z"]),
            RecurringTask(
                id: "b", title: "B", start: at("2025-01-01T00:00:00Z"), schedule: .fixed(every: .init(1, .weeks)),
                completions: [at("2025-01-09T00:00:00Z"), at("2025-01-30T00:00:00Z")]),
            RecurringTask(
                id: "c", title: "C", start: at("2025-01-01T00:00:00Z"),
                schedule: .weekdays([.monday], at: TimeOfDay(hour: 9, minute: 0)),
                completions: [at("2025-01-06T10:00:00Z"), at("2025-01-20T10:00:00Z")]),
        ]
        var stepped = NotificationScheduler(tasks: tasks)
        var outputs: [SchedulerOutput] = []
        var time = at("2025-01-01T00:00:00Z")
        while time <= at("2025-03-31T00:00:00Z") {
            outputs += stepped.advance(to: time)
            time = time.addingTimeInterval(3 * 3600 + 17)
        }
        var jumped = NotificationScheduler(tasks: tasks)
        let first = jumped.advance(to: at("2025-01-01T00:00:00Z"))
        let rest = jumped.advance(to: time.addingTimeInterval(-(3 * 3600 + 17)))
        #expect(kinds(outputs) == kinds(first + rest))
        #expect(outputs.count >= 4)
    }
}

@Suite("Notification scheduler on mixed tasks")
struct NotificationSchedulerMixedTests {
    /// Tasks of every schedule, some ending, with completions before,
    /// during and after the clock's run.
    func mixedTasks(_ random: inout SeededRandom) -> [RecurringTask] {
        let origin = at("2025-01-01T00:00:00Z")
        func day(_ low: Double, _ high: Double) -> Date { origin.addingTimeInterval(86_400 * random.uniform(low, high)) }
        let zones = ["UTC", "Europe/Berlin", "America/New_York"].map { TimeZone(identifier: $0)! }
        return (0..<300).map { index in
            let start = day(-20, 30)
            let schedule: Schedule =
                switch index % 4 {
                case 0: .afterCompletion(min: .init(1 + index % 3, .days), max: .init(3 + index % 5, .days))
                case 1: .fixed(every: [.init(12, .hours), .init(2, .days), .init(1, .weeks)][index % 3])
                case 2: .weekdays([.monday, .thursday], at: TimeOfDay(hour: index % 24, minute: 30))
                default: .once(due: start.addingTimeInterval(86_400 * random.uniform(0, 20)))
                }
            let end = index % 5 < 2 ? start.addingTimeInterval(86_400 * random.uniform(0.1, 40)) : nil
            return RecurringTask(
                id: "m\(index)", title: "M", timeZone: zones[index % 3], start: start, end: end, schedule: schedule,
                completions: (0..<(index % 4)).map { _ in day(-25, 45) })
        }
    }

    @Test("seeded: each due names the cycle its task has at that time, once, and steps equal one jump")
    func duesAreTheTasksCycles() throws {
        let seed = SeededRandom.testSeed(default: 23)
        var random = SeededRandom(seed: seed)
        let tasks = mixedTasks(&random)
        let first = at("2025-01-10T00:00:00Z"), last = at("2025-02-20T00:00:00Z")
        var stepped = NotificationScheduler(tasks: tasks)
        var outputs = stepped.advance(to: first)
        var time = first
        while time < last {
            time = min(last, time.addingTimeInterval(random.uniform(60, 40_000)))
            outputs += stepped.advance(to: time)
        }
        var jumped = NotificationScheduler(tasks: tasks)
        #expect(kinds(outputs) == kinds(jumped.advance(to: first) + jumped.advance(to: last)), "seed \(seed)")
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
        var notified = Set<String>()
        for case .notify(let due) in outputs {
            let cycle = try #require(byID[due.taskID]?.cycle(at: due.time))
            #expect(cycle.due == due.due && cycle.windowStart == due.windowStart, "\(due.taskID), seed \(seed)")
            #expect(due.time == max(cycle.due, first), "\(due.taskID), seed \(seed)")
            #expect(notified.insert("\(due.taskID) \(cycle.due)").inserted, "\(due.taskID) twice, seed \(seed)")
        }
        #expect(outputs.count > 200)
    }
}

@Suite("Notification scheduler updates")
struct NotificationSchedulerUpdateTests {
    @Test("a completion recorded elsewhere takes effect without losing what was notified")
    func updateKeepsState() {
        var scheduler = NotificationScheduler(tasks: [flexible()])
        _ = scheduler.advance(to: at("2025-01-10T00:00:00Z"))
        guard
            case .notify = scheduler.arrival(
                taskID: "plants", at: at("2025-01-10T08:00:00Z"), region: "Shop", device: nil, distance: 1)
        else { Issue.record("the gate should be open"); return }
        // Another shell records a completion at 09:00: the due on 2025-01-15 no longer fires,
        // the next cycle's due (2025-01-24 09:00) does.
        scheduler.update(tasks: [flexible(completions: ["2025-01-10T09:00:00Z"])])
        #expect(kinds(scheduler.advance(to: at("2025-01-20T00:00:00Z"))).isEmpty)
        #expect(kinds(scheduler.advance(to: at("2025-01-25T00:00:00Z"))) == ["due plants 2025-01-24T09:00:00Z"])
        // Without the completion, the cooldown of the earlier reminder would still hold.
        var unchanged = NotificationScheduler(tasks: [flexible()])
        _ = unchanged.advance(to: at("2025-01-10T00:00:00Z"))
        _ = unchanged.arrival(taskID: "plants", at: at("2025-01-10T08:00:00Z"), region: "Shop", device: nil, distance: 1)
        unchanged.update(tasks: [flexible()])
        let again = unchanged.arrival(taskID: "plants", at: at("2025-01-10T10:00:00Z"), region: "Shop", device: nil, distance: 1)
        #expect(again.map { kinds([$0]) } == ["suppressed cooldown plants 2025-01-10T10:00:00Z"])
    }
}
