import Foundation
import Pipeline
import Recurrence
import TestSupport
import Testing

/// A burst of due notifications taken a part at a time
/// (``NotificationScheduler/advance(to:atMost:)`` and
/// ``NotificationScheduler/takeHeld(atMost:)``) is the burst taken whole,
/// in the same order, with the pending limit counted across the parts.
@Suite("Notification scheduler: a burst of dues taken in parts")
struct SchedulerHeldOutputsTests {
    /// What a scheduler of `tasks` says at `stops`, asking for `limit`
    /// outputs at a time: the outputs as text, and the size of each part.
    static func inParts(
        of tasks: [RecurringTask], limit: Int, stops: [Date], settings: NotificationScheduler.Settings
    ) -> (said: [String], parts: [Int]) {
        var scheduler = NotificationScheduler(tasks: tasks, settings: settings)
        scheduler.threads = 2
        var said: [String] = []
        var parts: [Int] = []
        for stop in stops {
            var part = scheduler.advance(to: stop, atMost: limit)
            while !part.isEmpty {
                parts.append(part.count)
                said += part.map(SchedulerStartThreadsTests.said)
                part = scheduler.takeHeld(atMost: limit)
            }
            #expect(!scheduler.holdsOutputs)
        }
        return (said, parts)
    }

    @Test("seeded: 6 000 tasks at the start and 60 days of stops, in parts of 1, 7, 1 000 and 4 096; with a pending limit too")
    func partsMakeTheWhole() {
        let seed = SeededRandom.testSeed(default: 31)
        print("SchedulerHeldOutputsTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_711_800_000)
        let tasks = SchedulerStartThreadsTests.tasks(count: 6_000, start: start, random: &random)
        let stops = SchedulerStartThreadsTests.stops(from: start, random: &random)
        // A pending limit of 1 500 crosses the parts of 1 000 at the start.
        for settings in [NotificationScheduler.Settings(), NotificationScheduler.Settings(pendingLimit: 1_500)] {
            let whole = SchedulerStartThreadsTests.outputs(of: tasks, threads: 2, stops: stops, settings: settings)
            let burst = SchedulerStartThreadsTests.outputs(of: tasks, threads: 2, stops: [start], settings: settings).count
            #expect(whole.count > 6_000)
            #expect(burst > 1_000, "the start's burst is taken in several parts")
            if settings.pendingLimit != nil { #expect(whole.contains { $0.hasSuffix("pendingLimit") }) }
            for limit in [1, 7, 1_000, 4_096] {
                let (said, parts) = Self.inParts(of: tasks, limit: limit, stops: stops, settings: settings)
                let difference = SchedulerStartThreadsTests.difference(said, from: whole)
                #expect(
                    difference == nil,
                    "parts of \(limit), pending limit \(String(describing: settings.pendingLimit)): \(difference ?? "")")
                #expect(parts.allSatisfy { $0 <= limit }, "parts of \(limit): \(parts.max() ?? 0)")
                #expect(parts.first == min(limit, burst), "parts of \(limit)")
            }
        }
    }

    @Test("nothing is held back when the burst fits: a limit above the dues returns them all at once")
    func nothingHeldWhenItFits() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let tasks = (0..<10).map { index in
            RecurringTask(
                id: "t\(index)", title: "T\(index)", start: start.addingTimeInterval(-30 * 86_400),
                schedule: .once(due: start.addingTimeInterval(-Double(index) * 3600)))
        }
        var scheduler = NotificationScheduler(tasks: tasks)
        let outputs = scheduler.advance(to: start, atMost: 10)
        #expect(outputs.count == 10)
        #expect(!scheduler.holdsOutputs)
        #expect(scheduler.takeHeld(atMost: 10).isEmpty)
        var parted = NotificationScheduler(tasks: tasks)
        #expect(parted.advance(to: start, atMost: 4).count == 4)
        #expect(parted.holdsOutputs)
        #expect(parted.takeHeld(atMost: 4).count == 4)
        #expect(parted.takeHeld(atMost: 4).count == 2)
        #expect(!parted.holdsOutputs)
    }
}
