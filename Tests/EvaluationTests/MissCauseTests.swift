import Evaluation
import Testing

/// The cause classifiers on hand-made evidence: each cause, and the
/// order in which they are tried.
@Suite struct MissCauseTests {
    func entry(_ change: (inout MissCause.Evidence) -> Void) -> MissCause {
        var evidence = MissCause.Evidence(kind: .enter, confirm: 2)
        change(&evidence)
        return MissCause(evidence)
    }

    func exit(_ change: (inout MissCause.Evidence) -> Void) -> MissCause {
        var evidence = MissCause.Evidence(kind: .exit, confirm: 1)
        evidence.detectorInside = true
        change(&evidence)
        return MissCause(evidence)
    }

    @Test func missedEntriesByWhatTheFixesLacked() {
        #expect(entry { _ in } == .noFix)
        #expect(entry { $0.insideFixes = 3 } == .inaccurate)
        #expect(
            entry {
                $0.insideFixes = 3
                $0.accurateInside = 2
                $0.longestAccurateRun = 1
            } == .tooFewFixes)
        let enough: (inout MissCause.Evidence) -> Void = {
            $0.insideFixes = 3
            $0.accurateInside = 3
            $0.longestAccurateRun = 3
        }
        #expect(entry(enough) == .unexplained)
        #expect(
            entry {
                enough(&$0)
                $0.monitorLimited = true
            } == .notMonitored)
    }

    @Test func aDetectionNearbyOrTheDetectorsStateComesBeforeTheFixes() {
        #expect(entry { $0.strayDetection = 700 } == .outsideWindow)
        #expect(entry { $0.detectionTaken = true } == .taken)
        #expect(entry { $0.detectorInside = true } == .stillInside)
        // Late beats taken: the event was seen, only not in time.
        #expect(
            entry {
                $0.strayDetection = -45
                $0.detectionTaken = true
                $0.detectorInside = true
            } == .outsideWindow)
    }

    @Test func missedExits() {
        #expect(
            exit {
                $0.detectorInside = false
                $0.insideFixes = 5
            } == .entryMissed)
        #expect(exit { _ in } == .noFix)
        #expect(exit { $0.insideFixes = 4 } == .exitHeldBack)
        #expect(exit { $0.strayDetection = 900 } == .outsideWindow)
    }

    func alarm(_ kind: ScoredEvent.Kind = .enter, _ change: (inout FalseAlarmCause.Evidence) -> Void) -> FalseAlarmCause {
        var evidence = FalseAlarmCause.Evidence(kind: kind, edgeBand: 20)
        change(&evidence)
        return FalseAlarmCause(evidence)
    }

    @Test func falseDetectionsByWhereTheTruthWas() {
        #expect(alarm { $0.strayTruth = -800 } == .outsideWindow)
        #expect(
            alarm {
                $0.initialInside = true
                $0.truthExcess = -30
            } == .initialInside)
        // An exit and a re-entry two minutes apart, the truth 8 m outside the fence.
        #expect(
            alarm {
                $0.flapSeconds = 120
                $0.truthExcess = 8
            } == .flapping)
        #expect(
            alarm(.exit) {
                $0.flapSeconds = 30
                $0.truthExcess = -5
            } == .flapping)
        // Deep inside: a false exit and re-entry at any pace is a flap.
        #expect(
            alarm {
                $0.flapSeconds = 3000
                $0.truthExcess = -60
            } == .flapping)
        // 150 m outside: noise, flap or not.
        #expect(
            alarm {
                $0.flapSeconds = 60
                $0.truthExcess = 150
            } == .noise)
        #expect(alarm { $0.truthExcess = 12 } == .nearEdge)
        #expect(alarm { $0.truthExcess = -60 } == .noise)
        #expect(alarm { _ in } == .noise)
    }

    @Test func everyCauseHasWords() {
        for cause in MissCause.allCases { #expect(!cause.label.isEmpty && cause.advice.hasSuffix(".")) }
        for cause in FalseAlarmCause.allCases { #expect(!cause.label.isEmpty && cause.advice.hasSuffix(".")) }
    }
}
