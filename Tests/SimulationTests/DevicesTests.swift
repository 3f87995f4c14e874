import GeoCore
import Simulation
import TestSupport
import Testing

@Suite struct DevicesTests {
    static let seed = SeededRandom.testSeed(default: 20_251_203)

    static func noisyDelivery() throws -> (ErrorModel, DeliverySettings) {
        (
            Environment.urban.errorModel,
            try DeliverySettings(interval: 1, dropout: 0.1, coldStart: 20, reorder: 5, duplicates: 0.05)
        )
    }

    @Test func theSameSeedGivesTheSameFeedAndAnotherSeedAnother() throws {
        print("DevicesTests seed \(Self.seed)")
        let (model, delivery) = try Self.noisyDelivery()
        let devices = SimulatedDevice.numbered(2, following: try walkWithStop())
        let first = try simulate(devices, model, delivery, seed: Self.seed)
        #expect(first == (try simulate(devices, model, delivery, seed: Self.seed)))
        #expect(first != (try simulate(devices, model, delivery, seed: Self.seed &+ 1)))
        let simulation = try FeedSimulation(devices: devices, errorModel: model, delivery: delivery, seed: Self.seed)
        #expect(Array(simulation.fixes()) == Array(simulation.fixes()), "each iteration starts afresh")
    }

    @Test func devicesAreNumberedWhenThereAreSeveral() throws {
        let path = try walkWithStop()
        #expect(SimulatedDevice.numbered(1, following: path).map(\.name) == [nil])
        #expect(SimulatedDevice.numbered(3, following: path).map(\.name) == ["dev1", "dev2", "dev3"])
    }

    /// Each device draws from its own streams: a third device leaves the
    /// first two exactly as they were, and two devices on one path differ.
    @Test func addingADeviceLeavesTheOthersUnchanged() throws {
        print("DevicesTests seed \(Self.seed)")
        let (model, delivery) = try Self.noisyDelivery()
        let path = try walkWithStop()
        let two = try simulate(SimulatedDevice.numbered(2, following: path), model, delivery, seed: Self.seed)
        let three = try simulate(SimulatedDevice.numbered(3, following: path), model, delivery, seed: Self.seed)
        for name in ["dev1", "dev2"] {
            #expect(two.filter { $0.fix.device == name } == three.filter { $0.fix.device == name }, "\(name)")
        }
        let dev1 = two.filter { $0.fix.device == "dev1" }.map(\.fix.coordinate)
        let dev2 = two.filter { $0.fix.device == "dev2" }.map(\.fix.coordinate)
        #expect(dev1 != dev2)
    }

    @Test func devicesAreMergedByTimeThenDevice() throws {
        let path = try walkWithStop()
        let later = try TimedPath(
            vertices: path.vertices.map { .init(time: $0.time.adding(seconds: 0.5), coordinate: $0.coordinate) })
        let devices = [SimulatedDevice(name: "b", path: path), SimulatedDevice(name: "a", path: later)]
        let fixes = try simulate(
            devices, Environment.openSky.errorModel, DeliverySettings(interval: 1, start: simulationStart), seed: Self.seed)
        let order = fixes.prefix(4).map { "\($0.fix.device!) \(seconds($0.fix))" }
        #expect(order == ["b 0.0", "b 1.0", "a 1.0", "b 2.0"], "a's grid is anchored at the common start, its path 0.5 s later")
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.fix.time! <= $1.fix.time! })
    }

    @Test func noDeviceOrTwoOfTheSameNameAreRefused() throws {
        let path = try walkWithStop()
        let delivery = try DeliverySettings()
        #expect(throws: SimulationError.invalidValue("--devices", "must be 1 or more")) {
            try FeedSimulation(devices: [], delivery: delivery, seed: 1)
        }
        #expect(throws: SimulationError.invalidValue("--devices", "must have distinct names; x appears twice")) {
            try FeedSimulation(
                devices: [.init(name: "x", path: path), .init(name: "x", path: path)], delivery: delivery, seed: 1)
        }
    }
}
