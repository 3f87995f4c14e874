import GeoCore
import Simulation

/// 2025-03-01T10:00:00Z.
let simulationStart = Timestamp(nanoseconds: 1_740_823_200 * 1_000_000_000)
let berlin = Coordinate(latitude: 52.52, longitude: 13.40)

/// A device standing still at 60° N (where a degree of longitude is half a
/// degree of latitude) long enough for `fixes` samples `interval` apart.
func parkedPath(fixes: Int, interval: Double) throws -> TimedPath {
    let place = Coordinate(latitude: 60, longitude: 10)
    return try TimedPath(vertices: [
        .init(time: simulationStart, coordinate: place),
        .init(time: simulationStart.adding(seconds: Double(fixes - 1) * interval), coordinate: place),
    ])
}

/// A walk 1 400 m east, a 60 s stop, then 700 m north: 1 560 s in all.
func walkWithStop() throws -> TimedPath {
    let east = Geodesy.destination(from: berlin, bearing: 90, metres: 1_400)
    let north = Geodesy.destination(from: east, bearing: 0, metres: 700)
    return try TimedPath.following([berlin, east, north], speed: MotionProfile.walk.speed, stop: 60, from: simulationStart)
}

/// The delivered fixes of one simulation, in order.
func simulate(
    _ devices: [SimulatedDevice], _ model: ErrorModel = Environment.errorFree.errorModel,
    _ delivery: DeliverySettings? = nil, seed: UInt64
) throws -> [SimulatedFix] {
    let delivery = try delivery ?? DeliverySettings()
    return Array(try FeedSimulation(devices: devices, errorModel: model, delivery: delivery, seed: seed).fixes())
}

/// Seconds from the simulation's start.
func seconds(_ fix: Fix) -> Double { fix.time!.secondsSince1970 - simulationStart.secondsSince1970 }

/// A fix's error in metres east and north of where the device really was,
/// on the same local plane the error model uses.
func errorMetres(of fix: Fix, truth: Coordinate, cosLatitude: Double) -> (east: Double, north: Double) {
    (
        (fix.coordinate.longitude - truth.longitude) * Geodesy.metresPerDegree * cosLatitude,
        (fix.coordinate.latitude - truth.latitude) * Geodesy.metresPerDegree
    )
}

/// The two-sided 99.9 % interval of a binomial count's share (normal
/// approximation, z = 3.29).
func binomialInterval(probability p: Double, trials n: Int) -> ClosedRange<Double> {
    let half = 3.29 * (p * (1 - p) / Double(n)).squareRoot()
    return (p - half)...(p + half)
}
