import GeoCore
import Geofencing
import Pipeline
import Recurrence
import TestSupport
import Testing

/// 2025-03-01T10:00:00Z.
private let start = 1_740_823_200.0
private let origin = Coordinate(latitude: 52.5, longitude: 13.4)

/// The point `east` and `north` metres from the origin.
private func at(_ east: Double, _ north: Double = 0) -> Coordinate {
    let shifted = Geodesy.destination(from: origin, bearing: 0, metres: north)
    return Geodesy.destination(from: shifted, bearing: 90, metres: east)
}

private func fix(_ seconds: Double, _ device: String?, _ point: Coordinate, accuracy: Double? = nil) -> Fix {
    Fix(time: Timestamp(secondsSince1970: start + seconds), coordinate: point, accuracy: accuracy, device: device)
}

/// What a pipeline handed on, one line per event, and the most devices it
/// had set aside at once.
private struct Run {
    var lines: [String] = []
    var statistics: ReminderPipeline.Statistics?
    var mostSetAside = 0
}

/// Circles of 60 m every 400 m along a parallel and a second row 1 km north.
private let regions = (0..<10).flatMap { column in
    [
        Region(id: "south\(column)", shape: .circle(centre: at(Double(column) * 400), radius: 60)),
        Region(id: "north\(column)", shape: .circle(centre: at(Double(column) * 400, 1_000), radius: 60)),
    ]
}

private func replay(
    _ fixes: [Fix], idle: Double, geofence: GeofenceSettings = GeofenceSettings(), reorder: Double = 5,
    monitorLimit: Int? = nil, tasks: [RecurringTask] = []
) -> Run {
    var pipeline = ReminderPipeline(
        reminders: ReminderStage(tasks: tasks, regions: regions, settings: .init(cooldown: .init(20, .minutes))),
        geofence: geofence, reorderSeconds: reorder, monitorLimit: monitorLimit, deviceIdleSeconds: idle)
    var run = Run()
    var events: [ReminderPipeline.Event] = []
    for fix in fixes {
        pipeline.push(fix, into: &events)
        run.mostSetAside = max(run.mostSetAside, pipeline.idleDeviceCount)
    }
    pipeline.finish(into: &events)
    run.lines = events.map { "\($0)" }
    run.statistics = pipeline.statistics
    return run
}

/// `--device-idle`: a device silent for the idle time is set aside and put
/// back at its next fix, and nothing the pipeline hands on changes (issue 16).
@Suite struct DeviceIdleTests {
    /// A device that keeps the feed's clock moving: one fix a minute far
    /// from every region, for `hours`.
    func clock(hours: Double) -> [Fix] {
        stride(from: 0.0, through: hours * 3600, by: 60).map { fix($0, "clock", at(-5_000)) }
    }

    /// The fixes of both devices in time order.
    func merged(_ fixes: [Fix]...) -> [Fix] {
        fixes.joined().enumerated().sorted { ($0.1.time!, $0.0) < ($1.1.time!, $1.0) }.map(\.1)
    }

    func expectSame(_ fixes: [Fix], geofence: GeofenceSettings = GeofenceSettings(), monitorLimit: Int? = nil) {
        let kept = replay(fixes, idle: 1e9, geofence: geofence, monitorLimit: monitorLimit)
        let setAside = replay(fixes, idle: 60, geofence: geofence, monitorLimit: monitorLimit)
        #expect(kept.mostSetAside == 0)
        #expect(setAside.mostSetAside >= 1, "the silent device was set aside")
        #expect(setAside.lines == kept.lines)
        #expect(setAside.statistics == kept.statistics)
    }

    @Test("a device back outside after hours inside exits at its return")
    func returnsOutsideAfterSilenceInside() {
        let phone = [fix(0, "phone", at(0)), fix(30, "phone", at(10)), fix(3 * 3600, "phone", at(200))]
        let run = replay(merged(phone, clock(hours: 4)), idle: 60)
        #expect(run.lines.filter { $0.contains("phone") && $0.contains("transition") }.count == 2, "enter, then exit")
        expectSame(merged(phone, clock(hours: 4)))
    }

    @Test("a device back inside the same region after hours neither exits nor enters again, and dwells")
    func returnsInsideAfterSilence() {
        let phone = [fix(0, "phone", at(0)), fix(30, "phone", at(10)), fix(3 * 3600, "phone", at(5))]
        expectSame(merged(phone, clock(hours: 4)), geofence: GeofenceSettings(dwell: 600))
        expectSame(merged(phone, clock(hours: 4)), geofence: GeofenceSettings(exitConfirm: 2))
    }

    @Test("the straight line across the silence still crosses the regions between")
    func crossesOverTheSilence() {
        let phone = [fix(0, "phone", at(-200)), fix(30, "phone", at(-150)), fix(2 * 3600, "phone", at(2_000))]
        let run = replay(merged(phone, clock(hours: 3)), idle: 60)
        #expect(run.lines.filter { $0.contains("cross") }.count == 5)
        expectSame(merged(phone, clock(hours: 3)))
    }

    @Test("entering after --confirm fixes counts the fixes before the silence")
    func confirmCountsAcrossTheSilence() {
        let phone = [fix(0, "phone", at(-300)), fix(30, "phone", at(0)), fix(3600, "phone", at(5))]
        expectSame(merged(phone, clock(hours: 2)), geofence: GeofenceSettings(confirm: 2))
    }

    @Test("a first fix inside without --initial-enter stays silent across the silence")
    func noInitialEnterAcrossTheSilence() {
        let phone = [fix(0, "phone", at(0)), fix(7200, "phone", at(300))]
        expectSame(merged(phone, clock(hours: 3)), geofence: GeofenceSettings(initialEnter: false))
    }

    @Test("the monitored set and reported inaccurate arrivals come back with the device")
    func monitorLimitAndAccuracyAcrossTheSilence() {
        let phone = [
            fix(0, "phone", at(-100)), fix(30, "phone", at(0), accuracy: 500), fix(3600, "phone", at(0), accuracy: 400),
            fix(7200, "phone", at(1_200)), fix(7260, "phone", at(1_205)),
        ]
        expectSame(merged(phone, clock(hours: 3)), monitorLimit: 2)
    }

    @Test("a late fix of a device set aside is still late, and its held fixes come out at the end in name order")
    func lateFixesAndFinish() {
        let phone = [fix(0, "phone", at(0)), fix(3600, "phone", at(10))]
        let car = [fix(10, "car", at(400)), fix(20, nil, at(800)), fix(30, "", at(1_200))]
        // Two hours after its newest fix, the phone sends one from before it.
        let fixes = merged(phone, car, clock(hours: 3)) + [fix(3590, "phone", at(20))]
        let run = replay(fixes, idle: 60, reorder: 5)
        #expect(run.lines.contains { $0.hasPrefix("late") })
        expectSame(fixes)
    }

    @Test("seeded: many devices, gaps of seconds to hours, shuffled, inaccurate, every setting")
    func seededFeedsGiveTheSameEvents() {
        let seed = SeededRandom.testSeed(default: 16)
        print("DeviceIdleTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for round in 0..<6 {
            var fixes: [Fix] = []
            for device in 0..<12 {
                let name: String? = device == 0 ? nil : device == 1 ? "" : "d\(device)"
                var time = random.uniform(0, 600)
                var point = at(random.uniform(-200, 3_800), random.uniform(-100, 1_100))
                for _ in 0..<Int(random.uniform(2, 30)) {
                    time += random.uniform(0, 1) < 0.15 ? random.uniform(600, 4 * 3600) : random.uniform(1, 40)
                    point = Geodesy.destination(from: point, bearing: random.uniform(0, 360), metres: random.uniform(0, 150))
                    let accuracy = random.uniform(0, 1) < 0.1 ? 300 : random.uniform(0, 20)
                    fixes.append(fix(time, name, point, accuracy: accuracy))
                }
            }
            fixes.sort { $0.time! < $1.time! }
            // Shuffle neighbours within the reorder window now and then.
            for index in fixes.indices.dropFirst() where random.uniform(0, 1) < 0.2 { fixes.swapAt(index - 1, index) }
            let settings = [
                GeofenceSettings(), GeofenceSettings(confirm: 2, exitConfirm: 2),
                GeofenceSettings(dwell: 900, initialEnter: false), GeofenceSettings(hysteresis: 0, reportsCross: false),
            ]
            let geofence = settings[round % settings.count]
            let monitorLimit = round % 3 == 2 ? 3 : nil
            let kept = replay(fixes, idle: 1e9, geofence: geofence, reorder: 30, monitorLimit: monitorLimit)
            for idle in [1.0, 120, 1800] {
                let run = replay(fixes, idle: idle, geofence: geofence, reorder: 30, monitorLimit: monitorLimit)
                #expect(run.mostSetAside > 0, "round \(round), idle \(idle)")
                #expect(run.lines == kept.lines, "round \(round), idle \(idle)")
                #expect(run.statistics == kept.statistics, "round \(round), idle \(idle)")
            }
        }
    }
}
