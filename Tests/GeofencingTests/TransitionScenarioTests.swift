import GeoCore
import Geofencing
import TestSupport
import Testing

/// The failure modes users of other geofencing systems report most, as
/// scripted timelines (issue 4).
@Suite struct TransitionScenarioTests {
    let fence = Region(id: "gate", shape: .circle(centre: gate, radius: 100))

    @Test func boundaryJitterAtOneHertzDoesNotFlap() {
        let seed = SeededRandom.testSeed(default: 4_004)
        print("boundaryJitterAtOneHertzDoesNotFlap seed \(seed)")
        var random = SeededRandom(seed: seed)
        // Ten minutes parked on the fence line, ±5–15 m of radial jitter, as
        // a phone reporting 10 m accuracy sees it.
        let fixes = (0..<600).map { second -> TimedFix in
            let jitter = Double.random(in: 5...15, using: &random) * (Bool.random(using: &random) ? 1 : -1)
            return fix(Double(second), offset(gate, 100 + jitter, bearing: Double(second % 360)), accuracy: 10)
        }
        var detector = TransitionDetector(regions: [fence])
        let events = run(&detector, fixes)
        #expect(events.map(\.kind) == [.enter], "seed \(seed)")

        // The same input without accuracy and without hysteresis flaps:
        // the rules above are what keep it quiet.
        var naive = TransitionDetector(regions: [fence], settings: GeofenceSettings(hysteresis: 0))
        let withoutAccuracy = fixes.map { timed -> TimedFix in
            var copy = timed.fix
            copy.accuracy = nil
            return TimedFix(copy)!
        }
        #expect(run(&naive, withoutAccuracy).count > 50)
    }

    @Test func seventeenKilometreAccuracyFixDoesNotExit() {
        let inside = (0..<5).map { fix(Double($0), offset(gate, 20), accuracy: 8) }
        let wild = fix(5, offset(gate, 1_000), accuracy: 17_000)
        let back = fix(6, offset(gate, 15), accuracy: 8)
        var detector = TransitionDetector(regions: [fence])
        #expect(run(&detector, inside + [wild, back]).map(\.kind) == [.enter])
        #expect(detector.statistics.inaccurate == 1)
        #expect(detector.regionsInside(device: nil) == [0])

        // Even with the accuracy gate opened, distance − accuracy keeps it in.
        var lenient = TransitionDetector(regions: [fence], settings: GeofenceSettings(maxAccuracy: 50_000))
        #expect(run(&lenient, inside + [wild, back]).map(\.kind) == [.enter])
        #expect(lenient.statistics.inaccurate == 0)
    }

    @Test func oneOverconfidentOutlierDoesNotExitWithExitConfirmTwo() {
        let before = (0..<5).map { fix(Double($0), offset(gate, 30), accuracy: 5) }
        let outlier = fix(5, offset(gate, 300), accuracy: 5)  // 200 m beyond the fence
        let after = (6..<10).map { fix(Double($0), offset(gate, 30), accuracy: 5) }
        var confirming = TransitionDetector(regions: [fence], settings: GeofenceSettings(exitConfirm: 2))
        #expect(run(&confirming, before + [outlier] + after).map(\.kind) == [.enter])

        var trusting = TransitionDetector(regions: [fence])
        #expect(run(&trusting, before + [outlier] + after).map(\.kind) == [.enter, .exit, .enter])

        // Two clearly-outside fixes in a row do exit, at the second one.
        var leaving = TransitionDetector(regions: [fence], settings: GeofenceSettings(exitConfirm: 2))
        let away = [fix(5, offset(gate, 300), accuracy: 5), fix(6, offset(gate, 320), accuracy: 5)]
        let events = run(&leaving, before + away)
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.last?.time == away[1].time)
    }

    @Test func carAtFiftyKilometresPerHourSampledPerMinuteCrossesFence() throws {
        let pharmacy = Region(id: "pharmacy", shape: .circle(centre: gate, radius: 150))
        let speed = 50_000.0 / 3600  // m/s
        let approach = 400.0
        let first = fix(0, offset(gate, approach, bearing: 270))
        let second = fix(60, offset(gate, speed * 60 - approach, bearing: 90))
        var detector = TransitionDetector(regions: [pharmacy])
        let events = run(&detector, [first, second])
        #expect(events.map(\.kind) == [.cross])
        let cross = try #require(events.first)
        let expected = Double(scenarioStart) + approach / speed  // 28.8 s in
        #expect(abs(cross.time.secondsSince1970 - expected) < 0.5)
        #expect(cross.distance < 5)
        #expect(cross.region == "pharmacy")

        var noCross = TransitionDetector(regions: [pharmacy], settings: GeofenceSettings(reportsCross: false))
        #expect(run(&noCross, [first, second]).isEmpty)

        // A pass 200 m to the side is not a crossing.
        let aside = [
            fix(0, offset(offset(gate, 200, bearing: 0), approach, bearing: 270)),
            fix(60, offset(offset(gate, 200, bearing: 0), speed * 60 - approach, bearing: 90)),
        ]
        var detectorAside = TransitionDetector(regions: [pharmacy])
        #expect(run(&detectorAside, aside).isEmpty)
    }
}
