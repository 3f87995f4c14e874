import Foundation
import GeoCore
import Simulation
import TestSupport
import Testing

/// The error model's statistics on 20 000 fixes of a parked device per
/// preset; `REPEAT_SEED=N` replays a run.
@Suite struct ErrorStatisticsTests {
    static let seed = SeededRandom.testSeed(default: 20_251_201)
    static let fixCount = 20_000
    static let presets: [Environment] = [.openSky, .suburban, .urban, .wifi, .cell]
    static let place = Coordinate(latitude: 60, longitude: 10)
    static let cos60 = 0.5

    /// The east and north errors of a parked device's fixes.
    static func errors(_ model: ErrorModel, interval: Double, count: Int = fixCount) throws -> [(east: Double, north: Double)] {
        let path = try parkedPath(fixes: count, interval: interval)
        let fixes = try simulate(
            [SimulatedDevice(name: nil, path: path)], model, DeliverySettings(interval: interval), seed: seed)
        #expect(fixes.count == count)
        return fixes.map { errorMetres(of: $0.fix, truth: place, cosLatitude: cos60) }
    }

    /// Sampled τ/2 apart, the Gaussian error is centred and has the
    /// standard deviation σ_total on each axis.
    @Test(arguments: presets)
    func errorIsCentredWithTheDeviationOfThePreset(environment: Environment) throws {
        print("ErrorStatisticsTests seed \(Self.seed) \(environment.rawValue)")
        let model = try environment.errorModel.overriding(outliers: .off)
        let errors = try Self.errors(model, interval: model.biasTime / 2)
        for axis in [errors.map(\.east), errors.map(\.north)] {
            let mean = axis.reduce(0, +) / Double(axis.count)
            let deviation = (axis.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(axis.count - 1)).squareRoot()
            #expect(abs(mean) < 0.1 * model.deviation, "mean \(mean)")
            #expect(abs(deviation / model.deviation - 1) < 0.1, "standard deviation \(deviation), σ_total \(model.deviation)")
        }
    }

    /// Sampled τ/60 apart, the error's autocorrelation at lag k is
    /// σ_b²/σ_total² · e^(−kΔt/τ): high at lags much shorter than τ, 1/e of
    /// that at τ; with no bias the error is white.
    @Test(arguments: presets)
    func autocorrelationIsThatOfTheGaussMarkovModel(environment: Environment) throws {
        print("ErrorStatisticsTests seed \(Self.seed) \(environment.rawValue)")
        let model = try environment.errorModel.overriding(outliers: .off)
        let interval = model.biasTime / 60
        let errors = try Self.errors(model, interval: interval)
        let biasShare = model.bias * model.bias / (model.deviation * model.deviation)
        for (lag, tolerance) in [(1, 0.05), (60, 0.1), (300, 0.1)] {
            let expected = biasShare * exp(-Double(lag) / 60)
            let measured = (Self.autocorrelation(errors.map(\.east), lag) + Self.autocorrelation(errors.map(\.north), lag)) / 2
            #expect(abs(measured - expected) < tolerance, "lag \(lag): \(measured), model \(expected)")
        }
        let white = try Self.errors(model.overriding(bias: 0), interval: interval)
        #expect(abs(Self.autocorrelation(white.map(\.east), 1)) < 0.05)
    }

    /// Each outlier moves its fix by exactly D, leaving the others as they
    /// were; the share of outliers is within its binomial 99.9 % interval.
    @Test(arguments: [Environment.suburban, .urban, .wifi])
    func outliersAreDisplacedByDWithTheirProbability(environment: Environment) throws {
        print("ErrorStatisticsTests seed \(Self.seed) \(environment.rawValue)")
        let model = environment.errorModel
        let withOutliers = try Self.errors(model, interval: 1)
        let without = try Self.errors(model.overriding(outliers: .off), interval: 1)
        var outliers = 0
        for (noisy, clean) in zip(withOutliers, without) {
            let displacement =
                ((noisy.east - clean.east) * (noisy.east - clean.east)
                + (noisy.north - clean.north) * (noisy.north - clean.north)).squareRoot()
            if displacement > 1e-6 {
                outliers += 1
                #expect(abs(displacement - model.outliers.distance) < 1e-6)
            }
        }
        let share = Double(outliers) / Double(Self.fixCount)
        #expect(
            binomialInterval(probability: model.outliers.probability, trials: Self.fixCount).contains(share), "share \(share)")
    }

    @Test func everyFixReportsTheModelsAccuracyAndHDOP() throws {
        let model = Environment.urban.errorModel
        let path = try parkedPath(fixes: 100, interval: 1)
        let fixes = try simulate([SimulatedDevice(name: nil, path: path)], model, seed: Self.seed).map(\.fix)
        #expect(fixes.allSatisfy { $0.accuracy == 1.515 * (3.0 * 3.0 + 7.4 * 7.4).squareRoot() })
        #expect(fixes.allSatisfy { $0.hdop == $0.accuracy! / 5 })
    }

    static func autocorrelation(_ values: [Double], _ lag: Int) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        var covariance = 0.0
        var variance = 0.0
        for index in values.indices {
            let centred = values[index] - mean
            variance += centred * centred
            if index + lag < values.count { covariance += centred * (values[index + lag] - mean) }
        }
        return covariance / variance
    }
}
