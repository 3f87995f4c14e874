import GeoCore
import Simulation
import TestSupport
import Testing

@Suite struct SamplingTests {
    static let seed = SeededRandom.testSeed(default: 20_251_202)

    /// 1 000 s east at walking pace, 60 s parked, 500 s north: a fix every
    /// 10 s from 0 to 1 560 s, with the speed and course of each leg.
    @Test func fixesFollowTheRoutesLengthProfileAndInterval() throws {
        let fixes = try simulate(
            [SimulatedDevice(name: nil, path: walkWithStop())], Environment.errorFree.errorModel,
            DeliverySettings(interval: 10), seed: Self.seed
        ).map(\.fix)
        #expect(fixes.count == 157)
        #expect(fixes.map(seconds) == (0...156).map { Double($0) * 10 })
        for fix in fixes {
            switch seconds(fix) {
            case ..<1_000:
                #expect(abs(fix.speed! - 1.4) < 1e-9 && abs(fix.course! - 90) < 1e-6, "walking east at \(seconds(fix))")
            case ..<1_060:
                #expect(fix.speed == 0 && fix.course == nil, "parked at \(seconds(fix))")
            default:
                #expect(abs(fix.speed! - 1.4) < 1e-9 && abs(fix.course! - 0) < 1e-6, "walking north at \(seconds(fix))")
            }
        }
        #expect(fixes.allSatisfy { $0.device == nil && $0.accuracy == nil && $0.hdop == nil })
    }

    @Test(arguments: MotionProfile.allCases)
    func fixCountIsTheDurationOverTheIntervalPlusOne(profile: MotionProfile) throws {
        let end = Geodesy.destination(from: berlin, bearing: 45, metres: 10_000)
        let path = try TimedPath.following([berlin, end], speed: profile.speed, from: simulationStart)
        let fixes = try simulate(
            [SimulatedDevice(name: nil, path: path)], Environment.errorFree.errorModel, DeliverySettings(interval: 2),
            seed: Self.seed)
        #expect(fixes.count == Int((10_000 / profile.speed / 2).rounded(.down)) + 1)
        #expect(fixes.allSatisfy { abs($0.fix.speed! - profile.speed) < 1e-9 })
    }

    /// The grid is anchored at `start`; there is no fix outside the path's time.
    @Test func samplesFallOnTheGridFromTheStartWithinThePath() throws {
        let device = [SimulatedDevice(name: nil, path: try parkedPath(fixes: 11, interval: 1))]
        let later = try simulate(
            device, Environment.errorFree.errorModel, DeliverySettings(interval: 1, start: simulationStart.adding(seconds: 2.5)),
            seed: 1)
        #expect(later.map { seconds($0.fix) } == [2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5])
        #expect(later.allSatisfy { $0.fix.time!.fractionDigits == 1 }, "a half-second grid prints tenths")
        let earlier = try simulate(
            device, Environment.errorFree.errorModel, DeliverySettings(interval: 4, start: simulationStart.adding(seconds: -6)),
            seed: 1)
        #expect(earlier.map { seconds($0.fix) } == [2, 6, 10])
    }

    @Test func withoutErrorTheFixesAreTheTruth() throws {
        let devices = SimulatedDevice.numbered(2, following: try walkWithStop())
        let simulation = try FeedSimulation(devices: devices, delivery: DeliverySettings(interval: 1), seed: Self.seed)
        var truth: [String: Coordinate] = [:]
        for point in try simulation.truth(interval: 1) { truth["\(point.device!) \(point.time!.nanoseconds)"] = point.coordinate }
        let fixes = Array(simulation.fixes())
        #expect(fixes.count == 2 * 1_561)
        for delivered in fixes {
            #expect(delivered.fix.coordinate == truth["\(delivered.fix.device!) \(delivered.fix.time!.nanoseconds)"])
        }
    }
}
