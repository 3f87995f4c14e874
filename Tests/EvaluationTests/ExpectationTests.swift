import Evaluation
import GeoCore
import Testing

@Suite struct ExpectationTests {
    /// Scores with enter recall 2/3, precision 1, latencies 10 s and 50 s,
    /// one device-hour.
    func scores() -> EvaluationScores {
        let start = 1_740_823_200.0
        func event(_ kind: ScoredEvent.Kind, _ seconds: Double) -> ScoredEvent {
            ScoredEvent(kind: kind, time: Timestamp(secondsSince1970: start + seconds), region: "shop", device: nil)
        }
        var coverage = TruthCoverage()
        coverage.add(
            [0.0, 3600].map {
                TruthPoint(time: Timestamp(secondsSince1970: start + $0), coordinate: .init(latitude: 0, longitude: 0))
            })
        return EvaluationScores(
            truth: [event(.enter, 0), event(.enter, 1000), event(.enter, 2000)],
            detected: [event(.enter, 10), event(.enter, 1050)], window: MatchWindow(), coverage: coverage)
    }

    @Test(arguments: [
        ("enter.recall>=0.6", true), ("enter.recall >= 0.7", false), ("enter.recall>=66%", true),
        ("enter.precision==1", true), ("enter.latency_s.p90<=1m", true), ("enter.latency_s.max<50s", false),
        ("enter.latency_s.max<=50000ms", true), ("enter.fn>0", true), ("false_entries_per_100h<=0", true),
        ("device_hours>=1", true), ("exit.recall>=0", false), ("reminders.recall>=0", false),
    ])
    func expectationsCompareTheMetricAtTheirPath(text: String, holds: Bool) throws {
        let expectation = try Expectation(parsing: text)
        #expect(expectation.holds(for: scores()) == holds, "\(text)")
    }

    @Test func undefinedMetricsAreNullAndUnknownPathsAreNotMetrics() {
        let scores = scores()
        #expect(scores.value(at: "exit.recall") == .some(nil))
        #expect(scores.value(at: "enter.tp") == .some(2))
        #expect(scores.value(at: "enter.bogus") == nil)
        #expect(EvaluationScores.metricPaths.allSatisfy { scores.value(at: $0) != nil })
    }

    @Test func badExpectationsSayWhatIsWrong() {
        #expect(throws: ExpectationError.unknownMetric("enter.recal", suggestion: "enter.recall")) {
            try Expectation(parsing: "enter.recal>=0.9")
        }
        // Far from every metric: no arbitrary suggestion ('km' for 'qqq').
        #expect(throws: ExpectationError.unknownMetric("qqq", suggestion: nil)) { try Expectation(parsing: "qqq>=1") }
        #expect(
            ExpectationError.unknownMetric("qqq", suggestion: nil).description
                == "--expect: 'qqq' is not a metric (paths as in the JSON output)")
        #expect(throws: ExpectationError.noComparison("enter.recall 0.9")) { try Expectation(parsing: "enter.recall 0.9") }
        #expect(throws: ExpectationError.badValue("enter.recall>=high")) { try Expectation(parsing: "enter.recall>=high") }
        #expect(throws: ExpectationError.badValue("enter.latency_s.p90<=30 parsecs")) {
            try Expectation(parsing: "enter.latency_s.p90<=30 parsecs")
        }
        do {
            _ = try Expectation(parsing: ">=0.9")
            Issue.record("an expectation without a metric was taken")
        } catch {
            #expect(
                error.description == "--expect: no metric before the comparison; write METRIC>=VALUE, e.g. enter.recall>=0.95")
        }
    }

    @Test func wilsonIntervalsMatchTheTextbook() throws {
        // 8 of 10: Wilson 95 % interval [0.490, 0.943] (Newcombe 1998, method 3).
        let interval = try #require(ConfidenceInterval.wilson(successes: 8, trials: 10))
        #expect(abs(interval.lowerBound - 0.4902) < 1e-4 && abs(interval.upperBound - 0.9433) < 1e-4)
        let none = try #require(ConfidenceInterval.wilson(successes: 0, trials: 20))
        #expect(none.lowerBound == 0 && abs(none.upperBound - 0.1611) < 1e-4)
        #expect(ConfidenceInterval.wilson(successes: 0, trials: 0) == nil)
    }

    @Test func meanIntervalsUseStudentsT() throws {
        // Mean 5, sample standard deviation √2.5, n = 5: ± 2.776 · √0.5.
        let result = try #require(ConfidenceInterval.mean(of: [3, 4, 5, 6, 7]))
        #expect(result.mean == 5)
        #expect(abs(result.interval.upperBound - (5 + 2.776 * 0.5.squareRoot())) < 1e-9)
        #expect(ConfidenceInterval.mean(of: [1]) == nil)
    }
}
