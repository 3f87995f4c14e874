import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence
import TestSupport
import Testing

/// A stage made without tasks keeps no task per region (issue 16: ten
/// million regions became ten million always-due tasks). It must answer as
/// the scheduler of one always-due task per distinct region name did.
@Suite struct AlwaysDueStageTests {
    /// The tasks a stage without tasks used to make: one per distinct name,
    /// sorted, open since 1970 and due in 2200.
    func standIns(_ regions: [Region]) -> [RecurringTask] {
        var seen: Set<String> = []
        return regions.map(\.id).filter { seen.insert($0).inserted }.sorted().map { id in
            RecurringTask(
                id: id, title: id, start: Date(timeIntervalSince1970: 0),
                schedule: .afterCompletion(min: CalendarDuration(0, .seconds), max: CalendarDuration(230, .years)))
        }
    }

    @Test("seeded: arrivals, cooldowns, repeated names and the 2200 due burst answer as one task per name did")
    func answersAsOneTaskPerName() {
        let seed = SeededRandom.testSeed(default: 2200)
        print("AlwaysDueStageTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let names = ["shop", "park", "\u{e9}cole", "e\u{301}cole", "K", "\u{212A}", "gate", "shop", "zoo", ""]
        let regions = (0..<40).map { index in
            Region(
                id: names[Int(random.uniform(0, Double(names.count)))] + (index % 3 == 0 ? "" : "\(index % 5)"),
                shape: .circle(centre: Coordinate(latitude: 0, longitude: Double(index) / 100), radius: 50))
        }
        for limit in [nil, 3] {
            let settings = NotificationScheduler.Settings(cooldown: .init(30, .minutes), pendingLimit: limit)
            var stage = ReminderStage(tasks: [], regions: regions, settings: settings)
            var reference = NotificationScheduler(tasks: standIns(regions), settings: settings)
            // From 2199-12-31 into 2200, so that the due time passes.
            var time = 7_258_032_000.0
            var stageOutputs: [SchedulerOutput] = []
            var referenceOutputs: [SchedulerOutput] = []
            for _ in 0..<400 {
                time += random.uniform(0, 900)
                let stamp = Timestamp(secondsSince1970: time)
                stageOutputs += stage.advance(to: stamp)
                referenceOutputs += reference.advance(to: Date(timeIntervalSince1970: stamp.secondsSince1970))
                let key = Int(random.uniform(0, Double(regions.count)))
                let transition = Transition(
                    kind: random.uniform(0, 1) < 0.8 ? .enter : .cross, time: stamp, regionKey: key,
                    region: regions[key].id, device: "d", distance: 12)
                let blocked: SuppressionCause? = random.uniform(0, 1) < 0.1 ? .monitorLimit : nil
                stageOutputs += stage.handle(transition, blockedBy: blocked)
                referenceOutputs += [
                    reference.arrival(
                        taskID: regions[key].id, at: Date(timeIntervalSince1970: stamp.secondsSince1970),
                        region: regions[key].id, device: "d", distance: 12, blockedBy: blocked)!
                ]
            }
            #expect(stageOutputs.count > 400)
            #expect(stageOutputs.contains { if case .notify(let n) = $0 { n.kind == .due } else { false } })
            #expect(stageOutputs == referenceOutputs, "pending limit \(String(describing: limit))")
        }
    }
}
