import GeoCore
import Simulation
import TestSupport
import Testing

@Suite struct DeliveryTests {
    static let seed = SeededRandom.testSeed(default: 20_251_204)
    static let model = Environment.suburban.errorModel

    static func device(fixes: Int = 2_000) throws -> [SimulatedDevice] {
        [SimulatedDevice(name: nil, path: try parkedPath(fixes: fixes, interval: 1))]
    }

    @Test func gapsLeaveNoFixInsideAndEveryFixOutside() throws {
        let gaps = [
            try DeliverySettings.Gap(start: simulationStart.adding(seconds: 100), duration: 30),
            try DeliverySettings.Gap(start: simulationStart.adding(seconds: 500.5), duration: 0.5),
        ]
        let fixes = try simulate(Self.device(), Self.model, DeliverySettings(gaps: gaps), seed: Self.seed)
        let times = fixes.map { seconds($0.fix) }
        #expect(times == (0..<2_000).map(Double.init).filter { !(100..<130).contains($0) })
    }

    /// Dropout removes fixes independently, with its probability, and
    /// leaves the others where they were.
    @Test func delaysThatWouldCarryAFixPastTheLastTimeAreRefused() throws {
        let nearTheEnd = TimedPath.latestEnd.adding(seconds: -10 * 86_400)
        #expect(throws: SimulationError.pastLatestTime) {
            try DeliverySettings.Gap(start: nearTheEnd, duration: 30 * 86_400)
        }
        #expect(try DeliverySettings.Gap(start: nearTheEnd, duration: 86_400).duration == 86_400)
        let path = try TimedPath.following(
            [Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.53, longitude: 13.4)], speed: 10,
            from: nearTheEnd)
        let device = [SimulatedDevice(name: nil, path: path)]
        for delivery in [
            try DeliverySettings(reorder: 1e9), try DeliverySettings(coldStart: 11 * 86_400), try DeliverySettings(interval: 1e7),
        ] {
            #expect(throws: SimulationError.pastLatestTime) {
                try FeedSimulation(devices: device, delivery: delivery, seed: 1)
            }
        }
        let delayed = try FeedSimulation(devices: device, delivery: DeliverySettings(reorder: 3_600), seed: 1)
        #expect(!Array(delayed.fixes()).isEmpty)
    }

    @Test func dropoutDropsItsShareAndMovesNothing() throws {
        print("DeliveryTests seed \(Self.seed)")
        let count = 20_000
        let all = try simulate(Self.device(fixes: count), Self.model, seed: Self.seed)
        let kept = try simulate(Self.device(fixes: count), Self.model, DeliverySettings(dropout: 0.3), seed: Self.seed)
        let dropped = Double(count - kept.count) / Double(count)
        #expect(binomialInterval(probability: 0.3, trials: count).contains(dropped), "dropped \(dropped)")
        let byTime = Dictionary(uniqueKeysWithValues: all.map { ($0.fix.time!, $0) })
        #expect(kept.allSatisfy { byTime[$0.fix.time!] == $0 })
    }

    /// No fix arrives 5 s or more after one stamped later, every fix arrives
    /// once, and fixes really are shuffled.
    @Test func reorderShufflesWithinItsBoundAndDeliversEveryFixOnce() throws {
        print("DeliveryTests seed \(Self.seed)")
        let inOrder = try simulate(Self.device(), Self.model, seed: Self.seed)
        let shuffled = try simulate(Self.device(), Self.model, DeliverySettings(reorder: 5), seed: Self.seed)
        var latest = Timestamp(nanoseconds: .min)
        var inversions = 0
        for delivered in shuffled {
            let time = delivered.fix.time!
            #expect(latest.secondsSince1970 - time.secondsSince1970 < 5, "\(seconds(delivered.fix)) arrives too late")
            if time < latest { inversions += 1 }
            latest = max(latest, time)
        }
        #expect(inversions > 100)
        #expect(shuffled.sorted { $0.fix.time! < $1.fix.time! } == inOrder)
    }

    @Test func aReorderShorterThanTheIntervalKeepsTheOrder() throws {
        let inOrder = try simulate(Self.device(), Self.model, seed: Self.seed)
        #expect(try simulate(Self.device(), Self.model, DeliverySettings(reorder: 0.99), seed: Self.seed) == inOrder)
    }

    /// A duplicate comes right after its original; without the copies the
    /// feed is as before.
    @Test func duplicatesRepeatFixesRightAfterThemselves() throws {
        print("DeliveryTests seed \(Self.seed)")
        let count = 20_000
        let once = try simulate(Self.device(fixes: count), Self.model, seed: Self.seed)
        let twice = try simulate(Self.device(fixes: count), Self.model, DeliverySettings(duplicates: 0.1), seed: Self.seed)
        var originals: [SimulatedFix] = []
        for delivered in twice where originals.last != delivered { originals.append(delivered) }
        #expect(originals == once)
        let share = Double(twice.count - once.count) / Double(count)
        #expect(binomialInterval(probability: 0.1, trials: count).contains(share), "duplicated \(share)")
    }

    /// The path's first 30 s are invalid epochs, in place: the route is not shifted.
    @Test func coldStartMarksTheFirstEpochsInvalid() throws {
        let path = try walkWithStop()
        let devices = [SimulatedDevice(name: nil, path: path)]
        let start = simulationStart.adding(seconds: 10)
        let normal = try simulate(devices, Self.model, DeliverySettings(start: start), seed: Self.seed)
        let cold = try simulate(devices, Self.model, DeliverySettings(start: start, coldStart: 30), seed: Self.seed)
        #expect(cold.map(\.fix) == normal.map(\.fix))
        #expect(cold.filter { !$0.valid }.map { seconds($0.fix) } == (10..<30).map(Double.init), "counted from the path's start")
        #expect(normal.allSatisfy { $0.valid })
    }

    @Test func badSettingsAreRefusedWithTheFlagNamed() {
        #expect(throws: SimulationError.invalidValue("--interval", "must be more than 0 seconds")) {
            try DeliverySettings(interval: 0)
        }
        #expect(throws: SimulationError.invalidValue("--interval", "must be more than 0 seconds")) {
            try DeliverySettings(interval: 1e-12)
        }
        #expect(throws: SimulationError.invalidValue("--cold-start", "must be at most 1000000000 seconds (31 years)")) {
            try DeliverySettings(coldStart: .infinity)
        }
        #expect(throws: SimulationError.invalidValue("--dropout", "must be a probability from 0 to 1")) {
            try DeliverySettings(dropout: -0.1)
        }
        #expect(throws: SimulationError.invalidValue("--duplicates", "must be a probability from 0 to 1")) {
            try DeliverySettings(duplicates: 2)
        }
        #expect(throws: SimulationError.invalidValue("--cold-start", "must be 0 or more seconds")) {
            try DeliverySettings(coldStart: -1)
        }
        #expect(throws: SimulationError.invalidValue("--reorder", "must be 0 or more seconds")) {
            try DeliverySettings(reorder: -1)
        }
        #expect(throws: SimulationError.invalidValue("--gap", "must be more than 0 seconds")) {
            try DeliverySettings.Gap(start: simulationStart, duration: 0)
        }
    }
}
