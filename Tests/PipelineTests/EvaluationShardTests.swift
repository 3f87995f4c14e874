import Evaluation
import Foundation
import GeoCore
import Geofencing
import Pipeline
import Testing

/// `evaluate --shard`'s arithmetic: which devices a shard scores, and the
/// tallies of every shard, through their JSON lines, adding up to the
/// unsharded rows to the last bit.
@Suite struct EvaluationShardTests {
    typealias Walks = FeedEvaluationTests

    /// 30 walkers past the shop, each for its own time (so that the
    /// device-hours do not add up alike in every order); the feed walks a
    /// few metres off the truth, some far enough to miss or invent events.
    static func subject() -> EvaluationSubject {
        var feed: [Fix] = []
        var truth = TruthTrackBuilder()
        for walker in 0..<30 {
            let seconds = 300 + 37 * walker
            let offset = Double(walker % 5) * 13
            for point in Walks.walk(offset: offset, seconds: seconds, device: "w\(walker)") { truth.add(point) }
            let off = Double(walker % 3 - 1) * 20
            feed += Walks.walk(offset: abs(offset + off), seconds: seconds, device: "w\(walker).csv")
        }
        return EvaluationSubject(fixes: feed, truth: .tracks(truth.finish()))
    }

    @Test("the tallies of 2, 3 and 7 shards, through their JSON lines, add up to the unsharded rows to the bit")
    func shardsAddUp() throws {
        let subject = Self.subject()
        let evaluation = FeedEvaluation(regions: [Walks.shop], tasks: [], reminderSettings: .init())
        let settings = [1, 2, 3].map { confirm in
            var setting = EvaluationSetting(geofence: GeofenceSettings(), reorderSeconds: 5, monitorLimit: nil)
            setting.geofence.confirm = confirm
            setting.parameters = [.init(name: "confirm", value: .number(Double(confirm)))]
            return setting
        }
        let window = MatchWindow()
        let reference = EvaluationRunner(evaluation: evaluation, settings: settings, window: window, jobs: 1).rows(
            for: subject)
        #expect(reference.allSatisfy { $0.scores.enter.truePositives > 0 && $0.scores.enter.falseNegatives > 0 })
        #expect(reference.contains { $0.scores.enter.falsePositives > 0 })
        let truth = evaluation.truth(of: subject)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repeat-tallies-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for count in [2, 3, 7] {
            var tallies: [EvaluationRunTally] = []
            var inShardOrder: [TruthCoverage] = []
            for index in 0..<count {
                let shard = EvaluationShard(index: index, count: count)
                let fixes = subject.fixes.filter { shard.holds(feedDevice: $0.device) }
                let mine = EvaluationSubject(fixes: fixes, truth: subject.truth)
                let detections = settings.map { evaluation.detect(mine, devices: truth.devices, setting: $0) }
                let devices = shard.truthDevices(truth.devices, feedDevices: subject.feedDevices)
                let tally = EvaluationRunTally(
                    run: 1, truth: truth, detections: detections, window: window, devices: devices)
                let header = ShardHeader(index: index, count: count, arguments: ["evaluate"], directory: "/")
                let end = EvaluationShardFile.End(described: "a test", runs: 1, settings: settings.count)
                let path = "\(folder)/\(count)-\(index).jsonl"
                try EvaluationShardFile.lines(header: header, tallies: [tally], end: end).joined().write(
                    toFile: path, atomically: true, encoding: .utf8)
                let read = try EvaluationShardFile(path: path)
                #expect(read.tallies == [tally], "shard \(index)/\(count) through its lines")
                tallies += read.tallies
                inShardOrder += (tally.coverage ?? []).map { TruthCoverage(deviceHours: $0.hours, kilometres: $0.km) }
            }
            #expect(tallies.map { $0.coverage?.count ?? 0 }.reduce(0, +) == 30)
            let merged = EvaluationRunner.rows(tallies: tallies.reversed(), runs: 1, settings: settings)
            #expect(merged.map { $0.json(expectations: []) } == reference.map { $0.json(expectations: []) })
            #expect(merged.map(\.scores.coverage) == reference.map(\.scores.coverage), "\(count) shards")
            // The summary's counts of fixes ignored.
            func ignored(_ rows: [EvaluationRunner.Row]) -> [[Int]] {
                rows.map {
                    [
                        $0.statistics.detector.inaccurate, $0.statistics.detector.invalid, $0.statistics.untimed,
                        $0.statistics.late,
                    ]
                }
            }
            #expect(ignored(merged) == ignored(reference), "\(count) shards")
            // The order of the sum shows in its last bits: the merge sums in the truth's order.
            #expect(TruthCoverage(summing: inShardOrder) != reference[0].scores.coverage, "\(count) shards")
        }
    }

    @Test("a feed device named after its file falls with its truth device; a lone pair goes together whatever the names")
    func whichDevices() {
        for count in [2, 5, 16] {
            for name in ["dev1", "van-7", "a.b"] {
                let truth = EvaluationShard(index: 0, count: count).shard(ofDevice: name)
                for index in 0..<count {
                    let shard = EvaluationShard(index: index, count: count)
                    #expect(shard.holds(feedDevice: name + ".nmea") == (index == truth), "\(name) \(index)/\(count)")
                }
            }
            let lone = DeviceMatching(feed: ["rover"], truth: ["ground"])
            let owners = (0..<count).filter { index in
                !EvaluationShard(index: index, count: count).truthDevices(lone, feedDevices: ["rover"]).isEmpty
            }
            #expect(owners == [EvaluationShard(index: 0, count: count).shard(ofDevice: "rover")])
            // Runs go round the shards.
            let runs = (1...10).map { run in (0..<count).filter { EvaluationShard(index: $0, count: count).holds(run: run) } }
            #expect(runs.map(\.count) == Array(repeating: 1, count: 10))
            #expect(runs.map { $0[0] } == (1...10).map { ($0 - 1) % count })
        }
    }
}
