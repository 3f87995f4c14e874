import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence
import Testing

/// 2025-03-01T10:00:00Z.
private let start = 1_740_823_200.0

private func fix(_ seconds: Double, _ coordinate: Coordinate, accuracy: Double? = nil) -> Fix {
    Fix(time: Timestamp(secondsSince1970: start + seconds), coordinate: coordinate, accuracy: accuracy)
}

/// The point `metres` east of `origin`.
private func east(_ metres: Double, of origin: Coordinate = Coordinate(latitude: 52.5, longitude: 13.4)) -> Coordinate {
    Geodesy.destination(from: origin, bearing: 90, metres: metres)
}

/// Runs `fixes` through a pipeline and returns its reminder events as
/// "location r3" / "suppressed monitor-limit r3" lines, and its statistics.
private func replay(
    _ fixes: [Fix], regions: [Region], tasks: [RecurringTask] = [], monitorLimit: Int? = nil
) -> (lines: [String], statistics: ReminderPipeline.Statistics) {
    var pipeline = ReminderPipeline(
        reminders: ReminderStage(tasks: tasks, regions: regions, settings: .init(cooldown: .init(0, .seconds))),
        geofence: GeofenceSettings(), reorderSeconds: 5, monitorLimit: monitorLimit)
    var events: [ReminderPipeline.Event] = []
    for fix in fixes { pipeline.push(fix, into: &events) }
    pipeline.finish(into: &events)
    let lines = events.compactMap { event -> String? in
        guard case .reminder(let decision) = event else { return nil }
        switch decision {
        case .notify(let notification): return "\(notification.kind.rawValue) \(notification.region ?? "-")"
        case .suppress(let suppression): return "suppressed \(suppression.cause.reason) \(suppression.region ?? "-")"
        }
    }
    return (lines, pipeline.statistics)
}

@Suite("Reminder pipeline: platform limits and the accuracy gate")
struct ReminderPipelineTests {
    /// Circles of 50 m every 500 m along a parallel, r0 at the origin.
    let row = (0..<12).map { Region(id: "r\($0)", shape: .circle(centre: east(Double($0) * 500), radius: 50)) }

    /// Eastwards at 10 m/s from the origin for 6 000 m, one fix every `interval` seconds.
    func drive(every interval: Double) -> [Fix] {
        stride(from: 0.0, through: 600, by: interval).map { fix($0, east($0 * 10)) }
    }

    @Test("dense sampling: monitoring only the nearest region misses nothing")
    func denseSamplingMissesNothing() {
        let unlimited = replay(drive(every: 1), regions: row)
        let limited = replay(drive(every: 1), regions: row, monitorLimit: 1)
        #expect(unlimited.lines == row.map { "location \($0.id)" })
        #expect(limited.lines == unlimited.lines)
        #expect(limited.statistics.suppressions[.monitorLimit] == nil)
        #expect(limited.statistics.monitorRefreshes > 10, "the set follows the device")
    }

    @Test("sparse sampling: entries and crosses outside the monitored set are missed, and counted")
    func sparseSamplingMisses() {
        // 600 m between fixes: regions are crossed between fixes or entered
        // on a fix that still uses the set chosen 600 m back.
        let unlimited = replay(drive(every: 60), regions: row)
        let limited = replay(drive(every: 60), regions: row, monitorLimit: 1)
        let missed = limited.lines.filter { $0.hasPrefix("suppressed monitor-limit") }
        #expect(unlimited.lines.count == row.count, "every region is entered or crossed: \(unlimited.lines)")
        #expect(!missed.isEmpty)
        // Every arrival either reminded or is reported as missed, at the same place.
        #expect(
            limited.lines.map { $0.replacingOccurrences(of: "suppressed monitor-limit", with: "location") } == unlimited.lines)
        #expect(limited.statistics.suppressions[.monitorLimit] == missed.count)
        #expect(limited.statistics.missedTasks[.monitorLimit]?.count == missed.count, "one always-due task per region")
    }

    @Test("an inaccurate fix inside an open gate is reported once as missed; the next accurate one reminds")
    func accuracyGate() {
        let fixes = [
            fix(0, east(-300)),
            fix(10, east(0), accuracy: 500),
            fix(20, east(5), accuracy: 400),
            fix(30, east(0), accuracy: 8),
        ]
        let result = replay(fixes, regions: [row[0]])
        #expect(result.lines == ["suppressed accuracy r0", "location r0"])
        #expect(result.statistics.detector.inaccurate == 2)
        #expect(result.statistics.missedTasks[.accuracy] == ["r0"])
    }

    @Test("stages that hand on only the times of released fixes make the same events, fix events aside")
    func releasedTimesOnly() {
        // Inaccurate fixes between accurate ones (their fixes are kept for
        // the accuracy gate, the others' are not), a fix late for the
        // reorder window, one without time, and entries and exits.
        var fixes = drive(every: 7)
        for index in stride(from: 3, to: fixes.count, by: 5) { fixes[index].accuracy = 400 }
        fixes.insert(fix(100, east(1_000)), at: 40)
        fixes.insert(Fix(time: nil, coordinate: east(20)), at: 10)
        func events(emittingFixes: Bool) -> [String] {
            var pipeline = ReminderPipeline(
                reminders: ReminderStage(tasks: [], regions: row, settings: .init(cooldown: .init(0, .seconds))),
                geofence: GeofenceSettings(), reorderSeconds: 5)
            pipeline.emitsFixes = emittingFixes
            var events: [ReminderPipeline.Event] = []
            pipeline.push(contentsOf: fixes[...], into: &events)
            pipeline.finish(into: &events)
            return events.map { "\($0)" }
        }
        let all = events(emittingFixes: true)
        let timesOnly = events(emittingFixes: false)
        let fixEvents = all.filter { $0.hasPrefix("fix(") }
        #expect(fixEvents.count > 50)
        #expect(!timesOnly.contains { $0.hasPrefix("fix(") })
        #expect(timesOnly == all.filter { !$0.hasPrefix("fix(") })
        #expect(timesOnly.contains { $0.contains("accuracy") }, "the accuracy gate saw the inaccurate fixes")
        #expect(timesOnly.contains { $0.hasPrefix("late(") } && timesOnly.contains { $0.hasPrefix("untimed(") })
    }

    @Test("the clock's start hands its burst of dues on a few thousand at a time: the same events, in order")
    func burstHandedOn() throws {
        // 10 000 tasks, each once due on 2025-02-19 or earlier: all overdue
        // when the clock starts on 2025-03-01.
        let opened = try RFC3339Text.date("2025-01-01T00:00:00Z")
        let tasks = (0..<10_000).map { index in
            RecurringTask(
                id: "task-\(index)", title: "Errand \(index)", start: opened,
                schedule: .once(due: opened.addingTimeInterval(Double(index % 50) * 86_400)))
        }
        let fixes = [fix(0, east(-300)), fix(10, east(0)), fix(20, east(300))]
        func pipeline() -> ReminderPipeline {
            ReminderPipeline(
                reminders: ReminderStage(tasks: tasks, regions: row, settings: .init()),
                geofence: GeofenceSettings(), reorderSeconds: 0)
        }
        var whole = pipeline()
        var wholeEvents: [ReminderPipeline.Event] = []
        for fix in fixes { whole.push(fix, into: &wholeEvents) }
        var handed = pipeline()
        // The events of each fix, in the pieces they came in.
        var pieces: [[[ReminderPipeline.Event]]] = []
        var events: [ReminderPipeline.Event] = []
        for fix in fixes {
            var fixPieces: [[ReminderPipeline.Event]] = []
            handed.push(fix, into: &events) { piece in
                fixPieces.append(piece)
                piece.removeAll(keepingCapacity: true)
            }
            pieces.append(fixPieces + [events])
            events.removeAll(keepingCapacity: true)
        }
        let dues = wholeEvents.filter { event in
            guard case .reminder(.notify(let notification)) = event else { return false }
            return notification.kind == .due
        }
        #expect(dues.count == 10_000, "every task is overdue when the clock starts")
        let sizes = pieces.map { $0.map(\.count) }
        #expect(pieces.contains { $0.count >= 2 }, "the clock's start came in pieces: \(sizes)")
        #expect(pieces.joined().allSatisfy { $0.count < 9_000 }, "\(sizes)")
        #expect(pieces.joined().joined().map { "\($0)" } == wholeEvents.map { "\($0)" })
    }

    @Test("an inaccurate fix where the gate is closed gives the gate's reason, not accuracy")
    func accuracyWithClosedGate() throws {
        // Due every 10–14 days from 2025-03-01: the window opens on 03-11.
        let task = RecurringTask(
            id: "plants", title: "Water the plants", start: try RFC3339Text.date("2025-03-01T00:00:00Z"),
            schedule: .afterCompletion(min: .init(10, .days), max: .init(14, .days)),
            locations: [TaskLocation(name: "shop", latitude: 52.5, longitude: 13.4, radius: 50)])
        let result = replay([fix(0, east(-300)), fix(10, east(0), accuracy: 500)], regions: [], tasks: [task])
        #expect(result.lines == ["suppressed not-due shop"])
        #expect(result.statistics.missedTasks.isEmpty)
    }
}

@Suite struct AlwaysDueRegionTests {
    /// `live --regions` with an empty store re-reads no tasks every few
    /// seconds; the regions' always-due tasks must survive that.
    @Test func regionsWithoutTasksKeepRemindingAfterAnEmptyTaskUpdate() {
        let shop = Region(id: "shop", shape: .circle(centre: east(0), radius: 50))
        var pipeline = ReminderPipeline(
            reminders: ReminderStage(tasks: [], regions: [shop], settings: .init(cooldown: .init(0, .seconds))),
            geofence: GeofenceSettings(), reorderSeconds: 0)
        var events: [ReminderPipeline.Event] = []
        pipeline.push(fix(0, east(500)), into: &events)
        pipeline.update(tasks: [])
        pipeline.push(fix(10, east(0)), into: &events)
        pipeline.finish(into: &events)
        #expect(pipeline.statistics.notifications[.location] == 1)
    }
}
