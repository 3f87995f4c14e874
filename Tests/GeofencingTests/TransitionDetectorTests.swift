import GeoCore
import Geofencing
import Testing

/// The detector's rules one by one.
@Suite struct TransitionDetectorTests {
    let fence = Region(id: "gate", shape: .circle(centre: gate, radius: 100))

    @Test func confirmNeedsConsecutiveInsideFixes() {
        var detector = TransitionDetector(regions: [fence], settings: GeofenceSettings(confirm: 3))
        let fixes = [
            fix(0, offset(gate, 10)), fix(1, offset(gate, 10)), fix(2, offset(gate, 500)),  // interrupted
            fix(3, offset(gate, 10)), fix(4, offset(gate, 10)), fix(5, offset(gate, 10)),
        ]
        let events = run(&detector, fixes)
        #expect(events.map(\.kind) == [.enter])
        #expect(events.first?.time == fixes[5].time)
    }

    @Test func firstFixInsideIsAnEntryUnlessSwitchedOff() {
        let fixes = [fix(0, offset(gate, 10)), fix(1, offset(gate, 500))]
        var initial = TransitionDetector(regions: [fence])
        #expect(run(&initial, fixes).map(\.kind) == [.enter, .exit])
        var quiet = TransitionDetector(regions: [fence], settings: GeofenceSettings(initialEnter: false))
        #expect(run(&quiet, fixes).map(\.kind) == [.exit])
    }

    @Test func exitNeedsDistanceMinusAccuracyBeyondRadiusPlusHysteresis() {
        // Radius 100, default hysteresis 10: an exit needs d − accuracy > 110.
        var detector = TransitionDetector(regions: [fence])
        _ = detector.process(fix(0, offset(gate, 10)))
        #expect(detector.process(fix(1, offset(gate, 115), accuracy: 6)).isEmpty)  // 109 m: in the band
        #expect(detector.process(fix(2, offset(gate, 109))).isEmpty)
        let exit = detector.process(fix(3, offset(gate, 111)))
        #expect(exit.map(\.kind) == [.exit])
        #expect(abs((exit.first?.distance ?? 0) - 111) < 0.01)
        // A large fence gets 10 % hysteresis: 1000 m radius exits beyond 1100 m.
        let big = Region(id: "park", shape: .circle(centre: gate, radius: 1_000))
        var park = TransitionDetector(regions: [big])
        _ = park.process(fix(0, gate))
        #expect(park.process(fix(1, offset(gate, 1_090))).isEmpty)
        #expect(park.process(fix(2, offset(gate, 1_101))).map(\.kind) == [.exit])
    }

    @Test func dwellFiresOnceAfterTheDwellTime() {
        var detector = TransitionDetector(regions: [fence], settings: GeofenceSettings(dwell: 300))
        let fixes = stride(from: 0.0, through: 900, by: 60).map { fix($0, offset(gate, 20)) }
        let events = run(&detector, fixes)
        #expect(events.map(\.kind) == [.enter, .dwell])
        #expect(events.last?.time == fixes[5].time)  // 300 s after the entry
    }

    @Test("one fix's transitions come by time, then cross, exit, enter, then region key")
    func oneFixsTransitionsInOrder() {
        let west = offset(gate, 1000, bearing: 270)
        let east = offset(gate, 1000, bearing: 90)
        let regions = [
            Region(id: "left", shape: .circle(centre: west, radius: 100)),
            Region(id: "passed", shape: .circle(centre: gate, radius: 50)),
            // Keys not in the order of the regions' sizes.
            Region(id: "near", shape: .circle(centre: east, radius: 100)),
            Region(id: "wider", shape: .circle(centre: east, radius: 900)),
            Region(id: "wide", shape: .circle(centre: east, radius: 300)),
        ]
        var detector = TransitionDetector(regions: regions)
        #expect(detector.process(fix(0, west)).map(\.regionKey) == [0])
        // The detector finds the crossing first, then the regions the fix
        // is in, then those it left: the order comes from sorting them.
        let events = detector.process(fix(60, east))
        #expect(
            events.map { "\($0.kind.rawValue):\($0.region)" } == [
                "cross:passed", "exit:left", "enter:near", "enter:wider", "enter:wide",
            ])
        #expect(events.count == 5 && events[0].time < events[1].time && Set(events.dropFirst().map(\.time)).count == 1)
    }

    @Test("a device inside dozens of overlapping regions: each region's transitions as a detector of it alone finds them")
    func manyOverlappingRegionsAsEachAlone() {
        // 40 circles of 150 to 1 550 m around points near the gate: most
        // fixes of the walk are inside 10 to 40 of them at once.
        let regions = (0..<40).map { (index: Int) -> Region in
            let centre = offset(gate, Double(index % 7) * 60, bearing: Double(index) * 37)
            let radius = 150 + Double(index * 37 % 1_400)
            return Region(id: "r\(index)", shape: .circle(centre: centre, radius: radius))
        }
        // Out 2 km and back, a few metres off the line at every third fix,
        // so that some fixes fall in a fence's hysteresis band.
        let fixes = (0..<200).map { (step: Int) -> TimedFix in
            let along: Double = Double(step < 100 ? step : 200 - step) * 20
            let aside: Double = step % 3 == 0 ? 7 : 0
            return fix(Double(step) * 10, offset(gate, along + aside, bearing: 80 + Double(step % 5)))
        }
        func described(_ transition: Transition) -> String {
            "\(transition.time.nanoseconds) \(transition.kind) \(transition.region) \(transition.distance)"
        }
        for settings in [GeofenceSettings(), GeofenceSettings(confirm: 2, exitConfirm: 2), GeofenceSettings(dwell: 120)] {
            var together = TransitionDetector(regions: regions, settings: settings)
            let found = run(&together, fixes).map(described)
            var alone: [String] = []
            for region in regions {
                var detector = TransitionDetector(regions: [region], settings: settings)
                alone += run(&detector, fixes).map(described)
            }
            #expect(found.count > 100, "\(settings)")
            #expect(found.sorted() == alone.sorted(), "\(settings)")
        }
    }

    @Test func devicesAreTrackedApart() {
        var detector = TransitionDetector(regions: [fence])
        let fixes = [
            fix(0, offset(gate, 10), device: "a"), fix(0, offset(gate, 500), device: "b"),
            fix(1, offset(gate, 500), device: "a"), fix(1, offset(gate, 10), device: "b"),
        ]
        let events = run(&detector, fixes)
        #expect(events.map { "\($0.kind.rawValue):\($0.device ?? "-")" } == ["enter:a", "exit:a", "enter:b"])
    }

    @Test func ignoredFixesAreCountedReturnedAndChangeNothing() {
        var detector = TransitionDetector(regions: [fence])
        var transitions: [Transition] = []
        #expect(detector.process(fix(10, offset(gate, 500)), into: &transitions) == .evaluated)
        #expect(detector.process(fix(5, offset(gate, 10)), into: &transitions) == .ignored(.outOfOrder))
        #expect(detector.process(fix(11, Coordinate(latitude: 95, longitude: 0)), into: &transitions) == .ignored(.invalid))
        #expect(detector.process(fix(12, gate, accuracy: 150), into: &transitions) == .ignored(.inaccurate))
        #expect(detector.process(fix(13, gate, hdop: 30), into: &transitions) == .ignored(.inaccurate))  // 150 m
        #expect(transitions.isEmpty)
        let s = detector.statistics
        #expect([s.accepted, s.outOfOrder, s.invalid, s.inaccurate] == [1, 1, 1, 2])
        #expect(TimedFix(Fix(time: nil, coordinate: gate)) == nil, "a fix without time never reaches the detector")
    }

    @Test func polygonAreaEntersExitsAndIsCrossed() throws {
        // A 200 m square around the gate, with a 20 m hole in the middle.
        func corner(_ north: Double, _ east: Double) -> Coordinate {
            offset(offset(gate, north, bearing: 0), east, bearing: 90)
        }
        let outer = [corner(-100, -100), corner(-100, 100), corner(100, 100), corner(100, -100), corner(-100, -100)]
        let hole = [corner(-10, -10), corner(-10, 10), corner(10, 10), corner(10, -10), corner(-10, -10)]
        let square = Region(id: "square", shape: .area(try Area(polygons: [[outer, hole]])))
        var detector = TransitionDetector(regions: [square])
        let events = run(
            &detector,
            [
                fix(0, corner(0, -300)), fix(1, corner(0, -60)),
                fix(2, corner(0, 0)),  // in the hole, 10 m from its edge: within the hysteresis
                fix(3, corner(0, 300)),  // out
                fix(60, corner(400, 0)), fix(120, corner(50, -400)),  // around it
                fix(180, corner(50, 400)),  // straight through, sampled sparsely
            ])
        #expect(events.map(\.kind) == [.enter, .exit, .cross])
        let cross = try #require(events.last)
        #expect(abs(cross.time.secondsSince1970 - (Double(scenarioStart) + 150)) < 1)
    }

    @Test func regionsAddedAndRemovedWhileRunning() {
        var detector = TransitionDetector(regions: [])
        #expect(detector.process(fix(0, gate)).isEmpty)
        let key = detector.add(fence)
        #expect(detector.process(fix(1, gate)).map(\.kind) == [.enter])
        detector.remove(key: key)
        #expect(detector.process(fix(2, offset(gate, 500))).isEmpty)
        #expect(detector.regionsInside(device: nil).isEmpty)
    }

    @Test("fixes at the ends of Timestamp's range (1678…2262) cross and dwell without a trap")
    func timesCenturiesApart() throws {
        func at(_ text: String, _ coordinate: Coordinate) throws -> TimedFix {
            try #require(TimedFix(Fix(time: RFC3339.parse(text), coordinate: coordinate)))
        }
        // Outside on both sides, the segment through the fence: a cross halfway, in 1970.
        var crossing = TransitionDetector(regions: [fence])
        let crossed = run(
            &crossing,
            [
                try at("1679-03-01T10:00:00Z", offset(gate, 500, bearing: 0)),
                try at("2261-03-01T10:00:00Z", offset(gate, 500, bearing: 180)),
            ])
        #expect(crossed.map(\.kind) == [.cross])
        #expect(crossed.first.map { RFC3339.format($0.time).hasPrefix("1970-") } == true)
        // Inside 582 years apart: the dwell is reported.
        var dwelling = TransitionDetector(regions: [fence], settings: GeofenceSettings(dwell: 300))
        let dwelt = run(&dwelling, [try at("1679-03-01T10:00:00Z", gate), try at("2261-03-01T10:00:00Z", gate)])
        #expect(dwelt.map(\.kind) == [.enter, .dwell])
    }
}
