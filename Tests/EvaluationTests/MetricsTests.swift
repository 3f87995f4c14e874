import Evaluation
import GeoCore
import Testing

@Suite struct MetricsTests {
    func event(_ kind: ScoredEvent.Kind, _ seconds: Double) -> ScoredEvent {
        ScoredEvent(kind: kind, time: Timestamp(secondsSince1970: 1_740_823_200 + seconds), region: "shop", device: nil)
    }

    @Test func countsRatiosAndLatenciesPerKindAndTogether() throws {
        let truth = [event(.enter, 100), event(.exit, 400), event(.enter, 1000), event(.exit, 1300)]
        let detected = [event(.enter, 110), event(.exit, 430), event(.enter, 1040), event(.enter, 5000)]
        let matching = EventMatching(truth: truth, detected: detected, early: 30, late: 600)
        let enter = DetectionMetrics(matching, truth: truth, detected: detected, kind: .enter)
        #expect([enter.truePositives, enter.falsePositives, enter.falseNegatives] == [2, 1, 0])
        #expect(enter.precision == 2.0 / 3 && enter.recall == 1)
        #expect(abs(try #require(enter.f1) - 0.8) < 1e-12)
        #expect(enter.latency.p50 == 25 && enter.latency.max == 40)
        let exit = DetectionMetrics(matching, truth: truth, detected: detected, kind: .exit)
        #expect([exit.truePositives, exit.falsePositives, exit.falseNegatives] == [1, 0, 1])
        #expect(exit.precision == 1 && exit.recall == 0.5)
        let all = DetectionMetrics(matching, truth: truth, detected: detected, kind: nil)
        #expect([all.truePositives, all.falsePositives, all.falseNegatives] == [3, 1, 1])
        #expect(all.latency.p50 == 30)
        let visits = VisitRecall(matching, truth: truth)
        #expect(visits.visits == 2 && visits.recalled == 2 && visits.recall == 1)
    }

    @Test func undefinedRatiosAreNil() {
        let none = DetectionMetrics(
            EventMatching(truth: [], detected: [], early: 30, late: 600), truth: [], detected: [], kind: nil)
        #expect(none.precision == nil && none.recall == nil && none.f1 == nil)
        #expect(none.latency.p50 == nil && none.latency.max == nil)
        let truth = [event(.enter, 100)]
        let missed = DetectionMetrics(
            EventMatching(truth: truth, detected: [], early: 30, late: 600), truth: truth, detected: [], kind: nil)
        #expect(missed.precision == nil && missed.recall == 0 && missed.f1 == nil)
        #expect(VisitRecall(EventMatching(truth: [], detected: [], early: 30, late: 600), truth: []).recall == nil)
    }
}
