import Evaluation
import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence
import Testing

/// `evaluate`'s engine on hand-made feeds: truth tracks gathered from a
/// feed, detection padding and decimation, device matching.
@Suite struct FeedEvaluationTests {
    /// 2025-03-01T10:00:00Z.
    static let start = 1_740_823_200.0
    static let centre = Coordinate(latitude: 52.5, longitude: 13.4)
    static let shop = Region(id: "shop", shape: .circle(centre: centre, radius: 50))

    /// A walk east at 1.4 m/s, one fix a second for `seconds`, `offset`
    /// metres north of the shop, its closest approach at the middle.
    static func walk(offset: Double, seconds: Int = 600, device: String? = nil) -> [Fix] {
        let line = Geodesy.destination(from: centre, bearing: 0, metres: offset)
        return (0...seconds).map { second in
            let along = (Double(second) - Double(seconds) / 2) * 1.4
            return Fix(
                time: Timestamp(secondsSince1970: start + Double(second)),
                coordinate: Geodesy.destination(from: line, bearing: along >= 0 ? 90 : 270, metres: abs(along)),
                accuracy: 5, device: device)
        }
    }

    static func detect(
        _ fixes: [Fix], truth: [Fix], configure: (inout EvaluationSetting) -> Void
    ) -> (
        truth: [ScoredEvent], detected: [ScoredEvent]
    ) {
        var builder = TruthTrackBuilder()
        for point in truth { builder.add(point) }
        let subject = EvaluationSubject(fixes: fixes, truth: .tracks(builder.finish()))
        let evaluation = FeedEvaluation(regions: [shop], tasks: [], reminderSettings: .init())
        var setting = EvaluationSetting(geofence: GeofenceSettings(), reorderSeconds: 5, monitorLimit: nil)
        configure(&setting)
        let truth = evaluation.truth(of: subject)
        return (truth.events, evaluation.detect(subject, devices: truth.devices, setting: setting).events)
    }

    @Test func truthTracksAreGroupedByDeviceAndPutInTimeOrder() {
        var builder = TruthTrackBuilder()
        let a = Self.walk(offset: 0, seconds: 3)
        let b = Self.walk(offset: 0, seconds: 3, device: "b")
        // A device named "" is not the unnamed one.
        let empty = Self.walk(offset: 0, seconds: 1, device: "")
        for fix in [a[0], b[1], empty[0], a[2], a[1], b[0], a[3]] { builder.add(fix) }
        builder.add(Fix(time: nil, coordinate: Self.centre))
        let tracks = builder.finish()
        #expect(tracks.map(\.device) == [nil, "b", ""])
        #expect(tracks[0].points.map(\.time) == [a[0], a[1], a[2], a[3]].map { $0.time! })
        #expect(tracks[1].points.map(\.time) == [b[0].time!, b[1].time!])
    }

    @Test func paddingGrowsTheFenceForDetectionButNotForTheTruth() {
        let fixes = Self.walk(offset: 70)
        let plain = Self.detect(fixes, truth: fixes) { _ in }
        #expect(plain.truth.isEmpty && plain.detected.isEmpty)
        let padded = Self.detect(fixes, truth: fixes) { $0.padding = 30 }
        #expect(padded.truth.isEmpty)
        #expect(padded.detected.map(\.kind) == [.enter, .exit])
    }

    @Test func decimationKeepsAFixOnlyAnIntervalAfterTheLastKeptOne() {
        let fixes = Self.walk(offset: 0)
        let dense = Self.detect(fixes, truth: fixes) { _ in }
        #expect(dense.truth.map(\.kind) == [.enter, .exit])
        #expect(dense.detected.map(\.kind) == [.enter, .exit])
        // One fix every 10 minutes: the first and the last, far outside;
        // only the segment between them crosses the shop.
        let sparse = Self.detect(fixes, truth: fixes) { $0.interval = 600 }
        #expect(sparse.detected.map(\.kind) == [.enter, .exit])
        #expect(sparse.detected[0].time == sparse.detected[1].time)
        let noCross = Self.detect(fixes, truth: fixes) {
            $0.interval = 600
            $0.geofence.reportsCross = false
        }
        #expect(noCross.detected.isEmpty)
    }

    @Test func feedDevicesMatchTruthDevicesByNameOrFileName() {
        let named = DeviceMatching(feed: ["dev1.nmea", "dev2", "dev9"], truth: ["dev1", "dev2"])
        #expect(named.truthDevice(of: "dev1.nmea") == .some("dev1"))
        #expect(named.truthDevice(of: "dev2") == .some("dev2"))
        #expect(named.truthDevice(of: "dev9") == nil)
        #expect(named.unmatched == ["dev9"])
        let single = DeviceMatching(feed: ["walk.nmea"], truth: [nil])
        #expect(single.truthDevice(of: "walk.nmea") == .some(nil))
        #expect(single.unmatched.isEmpty)
        // The same name before the name without its extension; a lone
        // pair whose names match is matched by name.
        let both = DeviceMatching(feed: ["a.b", "c.d.e"], truth: ["a", "a.b", "c.d"])
        #expect(both.truthDevice(of: "a.b") == .some("a.b"))
        #expect(both.truthDevice(of: "c.d.e") == .some("c.d"))
        #expect(both.unmatched.isEmpty)
        let lone = DeviceMatching(feed: ["rover"], truth: ["ground"])
        #expect(lone.truthDevice(of: "rover") == .some("ground"))
        let loneNamed = DeviceMatching(feed: [nil], truth: [nil])
        #expect(loneNamed.truthDevice(of: nil) == .some(nil) && loneNamed.unmatched.isEmpty)
        let unnamedTwo = DeviceMatching(feed: [nil, "x"], truth: ["y"])
        #expect(unnamedTwo.truthDevice(of: nil) == nil && unnamedTwo.unmatched == [nil, "x"])
    }

    /// Devices pacing back and forth past the shop (one pass every 400 s,
    /// `offset` metres north of it), one fix a second, all devices' fixes
    /// of a second together as a fleet's feed has them.
    static func pacingFleet(offsets: [Double], seconds: Int) -> [Fix] {
        (0...seconds).flatMap { second in
            offsets.enumerated().map { index, offset in
                let line = Geodesy.destination(from: centre, bearing: 0, metres: offset)
                let along = (Double((second + 37 * index) % 400) - 200) * 1.4
                return Fix(
                    time: Timestamp(secondsSince1970: start + Double(second)),
                    coordinate: Geodesy.destination(from: line, bearing: along >= 0 ? 90 : 270, metres: abs(along)),
                    accuracy: 8, device: "dev\(index + 1)")
            }
        }
    }

    @Test func theTruthScannedFixByFixIsTheTruthOfTheKeptTracks() {
        let truthFixes = Self.pacingFleet(offsets: [0, 30, 45, 80], seconds: 12_000)
        let evaluation = FeedEvaluation(regions: [Self.shop], tasks: [], reminderSettings: .init())
        var builder = TruthTrackBuilder()
        var scanner = TruthScanner(evaluation: evaluation)
        for fix in truthFixes {
            builder.add(fix)
            scanner.add(fix)
        }
        #expect(scanner.isInTimeOrder && scanner.hasSegment)
        let feedDevices: [String?] = ["dev2", "dev1", "dev4", "dev3"]
        let kept = evaluation.truth(of: builder.finish(), feedDevices: feedDevices)
        let scanned = evaluation.truth(scanned: &scanner, feedDevices: feedDevices)
        #expect(kept.events.count > 200)
        #expect(scanned.events == kept.events)
        #expect(scanned.coverage == kept.coverage)
        #expect(scanned.reminders == nil && kept.reminders == nil)
        #expect(scanned.devices.unmatched == kept.devices.unmatched)

        // One point back in time: the tracks must be kept and sorted instead.
        var late = TruthScanner(evaluation: evaluation)
        for fix in truthFixes.prefix(100) + [truthFixes[10]] { late.add(fix) }
        #expect(!late.isInTimeOrder)
    }

    @Test func everySettingDetectingReadByReadFindsWhatItFindsOnTheWholeFeed() {
        let fixes = Self.pacingFleet(offsets: [0, 40, 58, 75], seconds: 6_000)
        let evaluation = FeedEvaluation(regions: [Self.shop], tasks: [], reminderSettings: .init())
        let base = EvaluationSetting(geofence: GeofenceSettings(), reorderSeconds: 5, monitorLimit: nil)
        // Settings of one padding share the regions' index: each must still
        // detect with its own rules.
        var settings = Array(repeating: base, count: 7)
        settings[1].geofence.confirm = 3
        settings[2].interval = 30
        settings[3].padding = 25
        settings[4].padding = 25
        settings[4].geofence.exitConfirm = 4
        settings[4].geofence.hysteresis = 0
        settings[5].monitorLimit = 1
        settings[5].geofence.initialEnter = false
        settings[6].reorderSeconds = 0
        settings[6].deviceIdleSeconds = 60
        let subject = EvaluationSubject(fixes: fixes, truth: .events([]))
        let devices = DeviceMatching(feed: subject.feedDevices, truth: ["dev1", "dev2", "dev3"])
        let sweep = SweepDetection(evaluation: evaluation, settings: settings, jobs: 2)
        var batch = FeedBatch()
        for start in stride(from: 0, to: fixes.count, by: 777) {
            batch.fixes = Array(fixes[start..<min(start + 777, fixes.count)])
            sweep.decoded(batch, feed: "fleet.csv")
        }
        #expect(sweep.fixes == fixes.count && sweep.hasTimedFix)
        #expect(sweep.feedDevices == subject.feedDevices)
        let unnamedAndEmpty = SweepDetection(evaluation: evaluation, settings: [base], jobs: 1)
        batch.fixes = Self.walk(offset: 0, seconds: 2, device: "") + Self.walk(offset: 0, seconds: 2)
        unnamedAndEmpty.decoded(batch, feed: "two.csv")
        #expect(unnamedAndEmpty.feedDevices == ["", nil])
        let streamed = sweep.detections(devices: devices)
        var distinct = Set<[ScoredEvent]>()
        for (index, setting) in settings.enumerated() {
            let whole = evaluation.detect(subject, devices: devices, setting: setting)
            #expect(whole.events.count > 20)
            #expect(!whole.events.contains { $0.device == "dev4" }, "a device without truth is not scored")
            #expect(streamed[index].events == whole.events, "setting \(index)")
            #expect(streamed[index].statistics == whole.statistics)
            distinct.insert(whole.events)
        }
        #expect(distinct.count >= 5, "the settings detect differently")
    }

    @Test func theTasksRemindersOnTheTruthScannedAreThoseOfTheKeptTracks() {
        // Two tasks at the shop, one always due, one due in a window; a
        // short cooldown, so that devices passing at the same second compete.
        let shop = TaskLocation(
            name: "shop", latitude: Self.centre.latitude, longitude: Self.centre.longitude, radius: 50)
        let opened = Date(timeIntervalSince1970: Self.start - 86_400)
        let tasks = [
            RecurringTask(
                id: "milk", title: "Milk", start: opened,
                schedule: .afterCompletion(min: CalendarDuration(0, .seconds), max: CalendarDuration(2, .days)),
                locations: [shop]),
            RecurringTask(
                id: "stamps", title: "Stamps", start: opened,
                schedule: .afterCompletion(min: CalendarDuration(1, .days), max: CalendarDuration(3, .days)),
                locations: [shop]),
        ]
        let settings = NotificationScheduler.Settings(cooldown: CalendarDuration(10, .minutes))
        let evaluation = FeedEvaluation(regions: [], tasks: tasks, reminderSettings: settings)
        let truthFixes = Self.pacingFleet(offsets: [0, 20, 35], seconds: 8_000)
        var builder = TruthTrackBuilder()
        var scanner = TruthScanner(evaluation: evaluation)
        for fix in truthFixes {
            builder.add(fix)
            scanner.add(fix)
        }
        #expect(scanner.isInTimeOrder)
        let kept = evaluation.truth(of: builder.finish(), feedDevices: ["dev1"])
        let scanned = evaluation.truth(scanned: &scanner, feedDevices: ["dev1"])
        let reminders = kept.reminders ?? []
        #expect(reminders.count > 10)
        #expect(scanned.reminders == reminders)
        #expect(scanned.events == kept.events)

        // One device's whole track after the other's: each in time order,
        // but not the truth as one, which the reminders need.
        var concatenated = TruthScanner(evaluation: evaluation)
        for fix in truthFixes.filter({ $0.device == "dev1" }) + truthFixes.filter({ $0.device == "dev2" }) {
            concatenated.add(fix)
        }
        #expect(!concatenated.isInTimeOrder)
    }

    @Test func aFeedScoredAsItIsReadIsScoredAsWhenKept() {
        let feed = Self.pacingFleet(offsets: [0, 40, 58], seconds: 5_000)
        let truthFixes = Self.pacingFleet(offsets: [0, 45, 60], seconds: 5_000)
        let evaluation = FeedEvaluation(regions: [Self.shop], tasks: [], reminderSettings: .init())
        var settings = Array(
            repeating: EvaluationSetting(geofence: GeofenceSettings(), reorderSeconds: 5, monitorLimit: nil), count: 3)
        settings[1].geofence.confirm = 2
        settings[2].padding = 10
        // In time order, and each device's points backwards (read again and kept).
        for truthPoints in [truthFixes, truthFixes.reversed()] {
            var builder = TruthTrackBuilder()
            for point in truthPoints { builder.add(point) }
            let subject = EvaluationSubject(fixes: feed, truth: .tracks(builder.finish()))
            let kept = evaluation.truth(of: subject)
            for jobs in [1, 2] {
                let (truth, detections) = evaluation.score(
                    feed: { feed }, truth: { truthPoints }, settings: settings, jobs: jobs)
                #expect(truth.events == kept.events && truth.coverage == kept.coverage)
                #expect(truth.events.count > 50)
                for (index, setting) in settings.enumerated() {
                    let whole = evaluation.detect(subject, devices: kept.devices, setting: setting)
                    #expect(detections[index].events == whole.events, "setting \(index), \(jobs) jobs")
                }
            }
        }
    }
}
