import GeoCore
import Geofencing
import Pipeline
import TestSupport
import Testing

@Suite struct ReorderBufferTests {
    /// 2025-03-01T10:00:00Z.
    let start = 1_740_823_200.0

    func fix(_ seconds: Double, device: String? = nil, lat: Double = 52.5) -> TimedFix {
        TimedFix(
            Fix(
                time: Timestamp(secondsSince1970: start + seconds), coordinate: Coordinate(latitude: lat, longitude: 13.4),
                device: device))!
    }

    func times(_ outputs: [ReorderBuffer.Output]) -> [String] {
        outputs.map { output in
            switch output {
            case .fix(let fix): return "\(Int(fix.time.secondsSince1970 - start))"
            case .late(let fix): return "late \(Int(fix.time.secondsSince1970 - start))"
            }
        }
    }

    @Test func releasesInTimeOrderOnceOlderThanTheWindow() {
        var buffer = ReorderBuffer(windowSeconds: 5)
        #expect(buffer.push(fix(10)).isEmpty)
        #expect(buffer.push(fix(8)).isEmpty)
        #expect(buffer.push(fix(12)).isEmpty)
        #expect(times(buffer.push(fix(20))) == ["8", "10", "12"])
        #expect(times(buffer.push(fix(3))) == ["late 3"])
        #expect(times(buffer.push(fix(16))) == [])  // 4 s behind 20: still placeable
        #expect(times(buffer.finish()) == ["16", "20"])
        #expect(buffer.heldCount == 0)
    }

    @Test("a fix of 1678 and a window of centuries never trap")
    func extremeTimesAndWindows() throws {
        var buffer = ReorderBuffer(windowSeconds: 1e12)
        let old = try #require(
            TimedFix(Fix(time: RFC3339.parse("1678-01-01T00:00:00Z"), coordinate: Coordinate(latitude: 1, longitude: 2))))
        #expect(buffer.push(old).isEmpty)
        // The window is clamped to Int64's 292 years: 1678 is older than 2025's horizon, and released.
        #expect(buffer.push(fix(0)) == [.fix(old)])
        #expect(times(buffer.finish()) == ["0"])
    }

    @Test("an epoch without a fix moves its device's clock on: what is older than the window is released")
    func epochsWithoutFixAdvance() {
        var buffer = ReorderBuffer(windowSeconds: 5)
        _ = buffer.push(fix(0, device: "a"))
        _ = buffer.push(fix(1, device: "b"))
        var released: [ReorderBuffer.Output] = []
        buffer.advance(device: DeviceID("a"), to: Timestamp(secondsSince1970: start + 5)) { released.append($0) }
        #expect(released.isEmpty, "0 is not older than 5 − 5")
        buffer.advance(device: DeviceID("a"), to: Timestamp(secondsSince1970: start + 6)) { released.append($0) }
        buffer.advance(device: DeviceID("c"), to: Timestamp(secondsSince1970: start + 60)) { released.append($0) }
        #expect(times(released) == ["0"], "b's fix waits for b's clock; c holds nothing")
        // A's clock is at 6 now: a fix at 0.5 is behind its window.
        #expect(times(buffer.push(fix(0.5, device: "a"))) == ["late 0"])
        #expect(times(buffer.finish()) == ["1"])
    }

    @Test(
        "releasing early (a quiet live source) empties the buffer; an older fix afterwards is late, an equal or newer one is held"
    )
    func releaseHeld() {
        var buffer = ReorderBuffer(windowSeconds: 5)
        _ = buffer.push(fix(10))
        _ = buffer.push(fix(8))
        var released: [ReorderBuffer.Output] = []
        buffer.releaseHeld { released.append($0) }
        #expect(times(released) == ["8", "10"])
        #expect(buffer.heldCount == 0)
        #expect(times(buffer.push(fix(9))) == ["late 9"])
        #expect(times(buffer.push(fix(10))) == [])
        #expect(times(buffer.push(fix(11))) == [])
        #expect(times(buffer.finish()) == ["10", "11"])
    }

    @Test func devicesHaveTheirOwnWindows() {
        var buffer = ReorderBuffer(windowSeconds: 5)
        _ = buffer.push(fix(100, device: "a"))
        // Device b is far behind a, but in order for itself: not late.
        #expect(times(buffer.push(fix(1, device: "b"))) == [])
        #expect(times(buffer.push(fix(10, device: "b"))) == ["1"])
        #expect(times(buffer.finish()) == ["100", "10"])
    }

    @Test func equalTimesKeepArrivalOrder() {
        var buffer = ReorderBuffer(windowSeconds: 1)
        _ = buffer.push(fix(5, lat: 1))
        _ = buffer.push(fix(5, lat: 2))
        let released = buffer.push(fix(10))
        #expect(released.count == 2)
        if case .fix(let first) = released[0], case .fix(let second) = released[1] {
            #expect([first.coordinate.latitude, second.coordinate.latitude] == [1, 2])
        }
    }

    /// Issue 4: batched, shuffled input gives the same transitions as
    /// in-order input (two devices walking through three fences at 1 Hz,
    /// uploaded in reversed 4-fix batches with the devices interleaved).
    @Test func batchedOutOfOrderInputEqualsInOrderInput() {
        let seed = SeededRandom.testSeed(default: 45)
        print("batchedOutOfOrderInputEqualsInOrderInput seed \(seed)")
        var random = SeededRandom(seed: seed)
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        let regions = (0..<3).map { i in
            Region(
                id: "fence-\(i)",
                shape: .circle(
                    centre: Geodesy.destination(from: centre, bearing: 90, metres: 150 + 250 * Double(i)), radius: 80))
        }
        var inOrder: [TimedFix] = []
        for device in ["phone", "watch"] {
            var position = centre
            for second in 0..<240 {
                position = Geodesy.destination(
                    from: position, bearing: 90 + Double.random(in: -20...20, using: &random),
                    metres: Double.random(in: 3...5, using: &random))
                inOrder.append(
                    TimedFix(
                        Fix(
                            time: Timestamp(secondsSince1970: start + Double(second)), coordinate: position,
                            accuracy: 5, device: device))!)
            }
        }
        inOrder.sort { ($0.time, $0.device!) < ($1.time, $1.device!) }
        // Batches of four consecutive fixes per device, each reversed.
        var shuffled: [TimedFix] = []
        for batchStart in stride(from: 0, to: inOrder.count, by: 8) {
            let batch = inOrder[batchStart..<min(inOrder.count, batchStart + 8)]
            shuffled += batch.reversed()
        }
        #expect(shuffled != inOrder)

        func transitions(_ fixes: [TimedFix]) -> [Transition] {
            var buffer = ReorderBuffer(windowSeconds: 5)
            var detector = TransitionDetector(regions: regions)
            var events: [Transition] = []
            for fix in fixes {
                for case .fix(let released) in buffer.push(fix) { events += detector.process(released) }
            }
            for case .fix(let released) in buffer.finish() { events += detector.process(released) }
            // Each device's events are in its own time order; across devices
            // the buffer may release in a different interleaving.
            return events.sorted { ($0.time, $0.device ?? "", $0.regionKey) < ($1.time, $1.device ?? "", $1.regionKey) }
        }
        let expected = transitions(inOrder)
        #expect(expected.count >= 8)  // each device enters and leaves fences
        #expect(transitions(shuffled) == expected)

        // Without the buffer the shuffled feed loses fixes and events.
        var detector = TransitionDetector(regions: regions)
        let unbuffered = shuffled.flatMap { detector.process($0) }
        #expect(unbuffered.count != expected.count || Set(unbuffered.map(\.time)) != Set(expected.map(\.time)))
        #expect(detector.statistics.outOfOrder > 0)
    }
}
