import Evaluation
import GeoCore
import Geofencing
import Pipeline
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
        for fix in [a[0], b[1], a[2], a[1], b[0], a[3]] { builder.add(fix) }
        builder.add(Fix(time: nil, coordinate: Self.centre))
        let tracks = builder.finish()
        #expect(tracks.map(\.device) == [nil, "b"])
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
    }
}
