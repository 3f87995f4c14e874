import Evaluation
import GeoCore
import Geofencing
import Testing

@Suite struct EventMatchingTests {
    let base: Int64 = 1_740_823_200

    func event(_ kind: ScoredEvent.Kind, _ seconds: Double, _ region: String = "shop", _ device: String? = "d") -> ScoredEvent {
        ScoredEvent(kind: kind, time: Timestamp(secondsSince1970: Double(base) + seconds), region: region, device: device)
    }

    /// The default window of DESIGN.md: 30 s early, 10 min late.
    func match(_ truth: [ScoredEvent], _ detected: [ScoredEvent]) -> EventMatching {
        EventMatching(truth: truth, detected: detected, early: 30, late: 600)
    }

    @Test func earlyAndLateDetectionsInsideTheWindowMatchWithTheirLatency() {
        let result = match([event(.enter, 100), event(.exit, 1000)], [event(.enter, 80), event(.exit, 1500)])
        #expect(result.matches.map(\.latency) == [-20, 500])
        #expect(result.missedTruth.isEmpty && result.unmatchedDetections.isEmpty)
    }

    @Test func detectionsOutsideTheWindowAreFalseAndTheTruthIsMissed() {
        let result = match([event(.enter, 100)], [event(.enter, 60), event(.enter, 701)])
        #expect(result.matches.isEmpty)
        #expect(result.missedTruth == [0])
        #expect(result.unmatchedDetections == [0, 1])
    }

    @Test func twoDetectionsForOneTruthEventLeaveOneFalsePositive() {
        let result = match([event(.enter, 100)], [event(.enter, 110), event(.enter, 120)])
        #expect(result.matches.map(\.detected) == [0])
        #expect(result.unmatchedDetections == [1])
    }

    @Test func flappingAtTheEdgeGivesFalseEntriesAndExits() {
        let truth = [event(.enter, 100), event(.exit, 400)]
        let detected = [event(.enter, 105), event(.exit, 130), event(.enter, 140), event(.exit, 410)]
        let result = match(truth, detected)
        #expect(result.matches.map(\.detected) == [0, 3], "the flap's exit at 130 s is before the true exit's window")
        #expect(result.unmatchedDetections == [1, 2], "the flap is one false exit and one false entry")
    }

    @Test func devicesRegionsAndKindsAreKeptApart() {
        let truth = [event(.enter, 100, "shop", "a"), event(.enter, 100, "bank", "a"), event(.enter, 100, "shop", "b")]
        let detected = [event(.enter, 101, "shop", "b"), event(.exit, 101, "shop", "a"), event(.enter, 102, "bank", "a")]
        let result = match(truth, detected)
        #expect(result.matches.map { [$0.truth, $0.detected] } == [[1, 2], [2, 0]])
        #expect(result.missedTruth == [0])
        #expect(result.unmatchedDetections == [1])
    }

    @Test func aCrossIsAnEntryAndAnExitAtItsTime() {
        let cross = Transition(
            kind: .cross, time: Timestamp(secondsSince1970: Double(base) + 50), regionKey: 0, region: "kiosk", device: nil,
            distance: 12)
        let detected = ScoredEvent.detected(from: cross)
        #expect(detected.map(\.kind) == [.enter, .exit])
        let result = match([event(.enter, 45, "kiosk", nil), event(.exit, 55, "kiosk", nil)], detected)
        #expect(result.matches.map(\.latency) == [5, -5])
        let dwell = Transition(kind: .dwell, time: cross.time, regionKey: 0, region: "kiosk", device: nil, distance: 0)
        #expect(ScoredEvent.detected(from: dwell).isEmpty, "dwell is not scored")
    }

    /// The greedy rule against every assignment, on random small cases.
    @Test func theGreedyRuleFindsTheLargestNumberOfMatches() {
        var random = SplitMix64(seed: 12)
        for _ in 0..<300 {
            let truth = (0..<Int(random.next() % 4)).map { _ in event(.enter, Double(random.next() % 60)) }
            let detected = (0..<Int(random.next() % 5)).map { _ in event(.enter, Double(random.next() % 80)) }
            let result = EventMatching(truth: truth, detected: detected, early: 5, late: 10)
            #expect(result.matches.count == Self.bestMatchCount(truth, detected, early: 5, late: 10))
            #expect(result.matches.count + result.missedTruth.count == truth.count)
            #expect(result.matches.count + result.unmatchedDetections.count == detected.count)
        }
    }

    /// The most matches any one-to-one assignment within the window finds
    /// (exhaustive search).
    static func bestMatchCount(_ truth: [ScoredEvent], _ detected: [ScoredEvent], early: Double, late: Double) -> Int {
        func fits(_ t: ScoredEvent, _ d: ScoredEvent) -> Bool {
            let delta = Double(d.time.nanoseconds - t.time.nanoseconds) / 1e9
            return delta >= -early && delta <= late
        }
        func best(_ index: Int, _ used: Set<Int>) -> Int {
            guard index < truth.count else { return 0 }
            var most = best(index + 1, used)
            for candidate in detected.indices where !used.contains(candidate) && fits(truth[index], detected[candidate]) {
                most = max(most, 1 + best(index + 1, used.union([candidate])))
            }
            return most
        }
        return best(0, [])
    }

    @Test func percentilesInterpolateBetweenClosestRanks() {
        let values = [1.0, 2, 3, 4, 10]
        #expect(percentile(0.5, ofSorted: values) == 3)
        #expect(abs(percentile(0.9, ofSorted: values)! - 7.6) < 1e-12)
        #expect(percentile(1, ofSorted: values) == 10)
        #expect(percentile(0, ofSorted: values) == 1)
        #expect(percentile(0.5, ofSorted: []) == nil)
        #expect(percentile(0.95, ofSorted: [42]) == 42)
    }
}
