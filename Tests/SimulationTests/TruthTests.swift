import GeoCore
import Simulation
import TestSupport
import Testing

@Suite struct TruthTests {
    static let seed = SeededRandom.testSeed(default: 20_251_205)

    /// The walk's vertices are at 0, 1 000, 1 060 and 1 560 s: on a 7 s
    /// grid only 0 is a grid time, written once; the others add a point each.
    @Test func truthIsTheGridPlusEveryVertexEachTimeOnce() throws {
        let path = try walkWithStop()
        let simulation = try FeedSimulation(
            devices: [SimulatedDevice(name: "walker", path: path)], errorModel: Environment.urban.errorModel,
            delivery: DeliverySettings(), seed: Self.seed)
        let truth = Array(try simulation.truth(interval: 7))
        let grid = (0...222).map { Double($0) * 7 }
        #expect(truth.map(seconds) == Set(grid + [1_000, 1_060, 1_560]).sorted())
        #expect(truth.allSatisfy { $0.device == "walker" && $0.accuracy == nil && $0.hdop == nil })
        for vertex in path.vertices {
            let points = truth.filter { $0.time == vertex.time }
            #expect(points.count == 1 && points.first?.coordinate == vertex.coordinate)
        }
    }

    /// The truth is where the path is, whatever the error model, and does
    /// not repeat a vertex time that is also on the grid.
    @Test func truthIsErrorFree() throws {
        let path = try walkWithStop()
        let devices = SimulatedDevice.numbered(2, following: path)
        let noisy = try FeedSimulation(
            devices: devices, errorModel: Environment.cell.errorModel, delivery: DeliverySettings(), seed: Self.seed)
        let truth = Array(try noisy.truth())
        #expect(truth.count == 2 * 1_561, "every vertex is on the 1 s grid")
        var cursor = TimedPath.Cursor(path)
        for point in truth where point.device == "dev1" {
            #expect(point.coordinate == cursor.position(at: point.time!))
        }
        #expect(zip(truth, truth.dropFirst()).allSatisfy { ($0.time!, $0.device!) < ($1.time!, $1.device!) })
    }

    @Test func aTruthIntervalMustBePositive() throws {
        let simulation = try FeedSimulation(
            devices: [SimulatedDevice(name: nil, path: try walkWithStop())], delivery: DeliverySettings(), seed: 1)
        #expect(throws: SimulationError.invalidValue("--truth-interval", "must be more than 0 seconds")) {
            try simulation.truth(interval: 0)
        }
    }
}
