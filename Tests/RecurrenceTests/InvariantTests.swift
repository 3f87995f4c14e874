import Foundation
import Recurrence
import TestSupport
import Testing

/// Seeded random cases for the invariants; `REPEAT_SEED=N` replays a run.
@Suite("Recurrence invariants (seeded random cases)")
struct InvariantTests {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"]
    static let units: [CalendarDuration.Unit] = [.minutes, .hours, .days, .weeks, .months, .years]

    struct Case {
        var task: RecurringTask
        var probes: [Date]
    }

    static func randomCase(_ rng: inout SeededRandom) -> Case {
        let zone = TimeZone(identifier: zones.randomElement(using: &rng)!)!
        let start = Date(timeIntervalSince1970: Double(Int.random(in: 1_600_000_000...1_800_000_000, using: &rng)))
        let unit = units.randomElement(using: &rng)!
        let every = CalendarDuration(Int.random(in: 1...(unit == .years ? 2 : 20), using: &rng), unit)
        let schedule: Schedule
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            schedule = .fixed(every: every)
        case 1:
            let extra = CalendarDuration(every.value + Int.random(in: 0...5, using: &rng), unit)
            schedule = .afterCompletion(min: every, max: extra)
        default:
            let days = Set(
                Weekday.allCases.filter { _ in Bool.random(using: &rng) } + [Weekday.allCases.randomElement(using: &rng)!])
            schedule = .weekdays(days, at: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: 30))
        }
        let span = every.approximateSeconds * 12 + 30 * 86_400
        var completions: [Date] = []
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            completions.append(start.addingTimeInterval(Double.random(in: 0...span, using: &rng)))
        }
        let probes = (0..<20).map { _ in start.addingTimeInterval(Double.random(in: -86_400...span, using: &rng)) }.sorted()
        let task = RecurringTask(id: "r", title: "R", timeZone: zone, start: start, schedule: schedule, completions: completions)
        return Case(task: task, probes: probes)
    }

    static func forEachCase(_ body: (Case) -> Void) {
        let seed = SeededRandom.testSeed(default: 20_251_121)
        print("InvariantTests seed \(seed) (REPEAT_SEED to replay)")
        var rng = SeededRandom(seed: seed)
        for _ in 0..<300 { body(randomCase(&rng)) }
    }

    @Test("the next due is after the last completion")
    func dueAfterCompletion() {
        Self.forEachCase { c in
            for time in c.probes {
                guard let cycle = c.task.cycle(at: time), let last = c.task.status(at: time).lastCompleted,
                    last >= c.task.start
                else { continue }
                #expect(cycle.due > last, "\(c.task.schedule) at \(time): due \(cycle.due) not after \(last)")
                #expect(cycle.windowStart <= cycle.due)
            }
        }
    }

    @Test("fixed occurrences stay on the start + k·every grid")
    func fixedGrid() {
        Self.forEachCase { c in
            guard case .fixed(let every) = c.task.schedule else { return }
            let grid = (1...400).map { c.task.calendar.adding(every, times: $0, to: c.task.start) }
            for time in c.probes {
                guard let due = c.task.cycle(at: time)?.due else { continue }
                #expect(grid.contains(due) || due > grid.last!, "\(due) is off the grid of \(every) from \(c.task.start)")
            }
        }
    }

    @Test("a fixed cycle's due date and anchor are those a walk along the grid finds")
    func fixedCycleMatchesGridWalk() {
        Self.forEachCase { c in
            guard case .fixed(let every) = c.task.schedule else { return }
            let task = c.task
            let grid = (1...400).map { task.calendar.adding(every, times: $0, to: task.start) }
            func first(after time: Date) -> Date? { grid.first { $0 > max(time, task.start) } }
            for time in c.probes {
                // The plain reading: each completion made by `time` from
                // the start on moves the due date past itself and the due
                // date it met; the anchor is the occurrence before the due
                // date (or the start), but not before the last completion.
                let counted = task.completions.filter { $0 <= time && $0 >= task.start }
                var after = task.start
                for completion in counted {
                    guard let due = first(after: after) else { return }
                    after = max(completion, due)
                }
                guard let due = first(after: after), due < grid.last! else { continue }
                let previous = grid.last { $0 < due } ?? task.start
                let began = counted.last ?? task.start
                let cycle = task.cycle(at: time)
                #expect(cycle?.due == due, "\(every) from \(task.start) at \(time)")
                #expect(cycle?.anchor == max(previous, began), "\(every) from \(task.start) at \(time)")
            }
        }
    }

    @Test("the gate never opens before the start")
    func gateAfterStart() {
        Self.forEachCase { c in
            for time in c.probes where time < c.task.start {
                #expect(c.task.locationDecision(at: time, lastLocationNotification: nil) == .suppress(.notDue))
            }
        }
    }

    @Test("progress is monotonic within a cycle")
    func monotonicProgress() {
        Self.forEachCase { c in
            var previous: (cycle: Cycle, progress: Double)?
            for time in c.probes {
                guard let cycle = c.task.cycle(at: time) else { previous = nil; continue }
                let progress = cycle.progress(at: time)
                #expect((0...1).contains(progress))
                if let previous, previous.cycle == cycle {
                    #expect(progress >= previous.progress)
                }
                previous = (cycle, progress)
            }
        }
    }

    @Test("the cycle read through a pointer to the task, a field at a time, is the task's own (with ends and one-offs too)")
    func cycleInPlaceIsTheTasks() {
        var checked = 0
        Self.forEachCase { c in
            // The case's task, the same ending halfway through its probes,
            // and a one-off due at the first probe.
            var ending = c.task
            ending.end = c.probes[c.probes.count / 2]
            var once = c.task
            once.schedule = .once(due: c.probes[0])
            let tasks = [c.task, ending, once]
            tasks.withUnsafeBufferPointer { tasks in
                for (index, task) in tasks.enumerated() {
                    for time in c.probes {
                        let inPlace = (tasks.baseAddress! + index).cycle(at: time)
                        #expect(inPlace == task.cycle(at: time), "\(task.schedule) at \(time)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 300 * 3 * 20)
    }
}
