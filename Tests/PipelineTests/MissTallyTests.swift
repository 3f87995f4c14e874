import Evaluation
import GeoCore
import Geofencing
import Testing

@testable import Pipeline

/// A missed event's counts are those of its window's fixes in time order,
/// whatever order they come in.
@Suite struct MissTallyTests {
    static let centre = Coordinate(latitude: 52.5, longitude: 13.4)
    static let shop = Region(id: "shop", shape: .circle(centre: centre, radius: 50))
    static let start = Timestamp(secondsSince1970: 1_740_823_200)

    /// The window of a missed entry at the shop with a true exit 90 s
    /// later, under a setting that pads the shop by `padding` metres.
    static func entryWindow(padding: Double) -> MissWindow {
        var setting = EvaluationSetting(
            geofence: GeofenceSettings(confirm: 3, maxAccuracy: 40), reorderSeconds: 0, monitorLimit: nil)
        setting.padding = padding
        let truth = [
            ScoredEvent(kind: .enter, time: start, region: "shop", device: "d"),
            ScoredEvent(kind: .exit, time: start.adding(seconds: 90), region: "shop", device: "d"),
        ]
        return MissWindow(
            truth: truth, index: 0, region: shop, setting: setting, window: MatchWindow(early: 10, late: 60),
            exits: [truth[1].time.nanoseconds])
    }

    @Test("an entry's window runs from the matching window's start to the next true exit, padding included")
    func entryWindowBounds() {
        let window = Self.entryWindow(padding: 20)
        #expect(window.times == Self.start.adding(seconds: -10).nanoseconds...Self.start.adding(seconds: 90).nanoseconds)
        #expect(window.fence.contains(Geodesy.destination(from: Self.centre, bearing: 0, metres: 65)))
        #expect(!window.fence.contains(Geodesy.destination(from: Self.centre, bearing: 0, metres: 75)))
    }

    @Test("fixes out of time order, many at one second: the counts and the longest row of the sorted fixes", arguments: 0..<40)
    func outOfOrderFixesCountAsSorted(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let window = Self.entryWindow(padding: 0)
        var fixes: [(time: Int64, coordinate: Coordinate, accuracy: Double?)] = []
        for _ in 0..<Int(random.uniform(1, 200)) {
            let time = window.times.lowerBound + Int64(random.uniform(0, 100).rounded(.down)) * 1_000_000_000
            let coordinate = Geodesy.destination(
                from: Self.centre, bearing: random.uniform(0, 360), metres: random.uniform(0, 80))
            fixes.append((time, coordinate, random.uniform(0, 1) < 0.1 ? nil : random.uniform(3, 60)))
        }
        var tally = MissTally(window)
        for (position, fix) in fixes.enumerated() {
            tally.add(fix.coordinate, time: fix.time, position: position, accuracy: fix.accuracy)
        }
        // As the cause read them from the delivered fixes in time order.
        var (inside, accurateInside, run, longest) = (0, 0, 0, 0)
        for index in fixes.indices.sorted(by: { (fixes[$0].time, $0) < (fixes[$1].time, $1) }) {
            let isInside = Self.shop.shape.contains(fixes[index].coordinate)
            if isInside { inside += 1 }
            guard (fixes[index].accuracy ?? 0) <= 40 else { continue }
            if isInside { accurateInside += 1 }
            run = isInside ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(tally.insideFixes == inside)
        #expect(tally.accurateInside == accurateInside)
        #expect(tally.longestAccurateRun == longest)
    }

    @Test("an exit counts the fixes past the fence, in any order")
    func exitCountsFixesPastTheFence() {
        let setting = EvaluationSetting(geofence: GeofenceSettings(), reorderSeconds: 0, monitorLimit: nil)
        let truth = [ScoredEvent(kind: .exit, time: Self.start, region: "shop", device: "d")]
        let window = MissWindow(
            truth: truth, index: 0, region: Self.shop, setting: setting, window: MatchWindow(early: 10, late: 60),
            exits: [])
        #expect(window.times == Self.start.nanoseconds...Self.start.adding(seconds: 60).nanoseconds)
        var tally = MissTally(window)
        for (position, metres) in [70.0, 30, 51, 49, 120].enumerated() {
            tally.add(
                Geodesy.destination(from: Self.centre, bearing: 90, metres: metres), time: window.times.upperBound,
                position: position, accuracy: nil)
        }
        #expect(tally.insideFixes == 3)
        #expect(tally.longestAccurateRun == 0)
    }
}
