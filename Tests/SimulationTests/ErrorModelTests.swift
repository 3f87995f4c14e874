import GeoCore
import Simulation
import Testing

@Suite struct ErrorModelTests {
    @Test func presetsHaveExactlyTheTablesValues() {
        let table: [(Environment, Double, Double, Double, Double, Double)] = [
            (.errorFree, 0, 0, 60, 0, 0),
            (.openSky, 1.0, 1.7, 60, 0, 0),
            (.suburban, 2.0, 3.5, 45, 0.002, 30),
            (.urban, 3.0, 7.4, 30, 0.01, 50),
            (.wifi, 5.0, 19.4, 120, 0.01, 100),
            (.cell, 50, 497, 600, 0, 0),
        ]
        for (environment, noise, bias, biasTime, p, distance) in table {
            let model = environment.errorModel
            #expect(model.noise == noise && model.bias == bias && model.biasTime == biasTime, "\(environment)")
            #expect(model.outliers.probability == p && model.outliers.distance == distance, "\(environment)")
        }
        #expect(Environment.allCases.map(\.rawValue) == ["none", "open-sky", "suburban", "urban", "wifi", "cell"])
    }

    @Test func accuracyIs1515TimesTheUnroundedDeviationAndHDOPAFifth() throws {
        let openSky = Environment.openSky.errorModel
        let expected = 1.515 * (1.0 * 1.0 + 1.7 * 1.7).squareRoot()
        #expect(openSky.accuracy == expected)
        #expect(openSky.accuracy != 1.515 * 2.0, "not the rounded σ_total of the table")
        #expect(openSky.hdop == expected / 5)
        let overridden = try Environment.cell.errorModel.overriding(noise: 0, bias: 10)
        #expect(overridden.accuracy == 1.515 * 10)
        #expect(Environment.errorFree.errorModel.accuracy == nil && Environment.errorFree.errorModel.hdop == nil)
    }

    @Test func overridesReplaceOneValueAtATime() throws {
        let urban = Environment.urban.errorModel
        let noisier = try urban.overriding(noise: 6)
        #expect(noisier.noise == 6 && noisier.bias == 7.4 && noisier.biasTime == 30 && noisier.outliers == urban.outliers)
        let slower = try urban.overriding(biasTime: 90)
        #expect(slower.biasTime == 90 && slower.noise == 3)
        let clean = try urban.overriding(outliers: .off)
        #expect(clean.outliers.probability == 0 && clean.bias == 7.4)
        #expect(try Environment.errorFree.errorModel.overriding(bias: 3).biasTime == 60, "τ defaults to 60 s")
    }

    @Test func badValuesAreRefusedWithTheFlagNamed() throws {
        let model = Environment.openSky.errorModel
        let range = "must be from 0 to 10 000 000 metres (a quarter of the Earth's circumference)"
        let farthest = "D must be from 0 to 20 000 000 metres (half the Earth's circumference)"
        #expect(throws: SimulationError.invalidValue("--noise", range)) {
            try model.overriding(noise: -1)
        }
        #expect(throws: SimulationError.invalidValue("--bias", range)) {
            try model.overriding(bias: -0.1)
        }
        #expect(throws: SimulationError.invalidValue("--bias-time", "must be more than 0 seconds")) {
            try model.overriding(biasTime: 0)
        }
        #expect(throws: SimulationError.invalidValue("--outliers", "p must be from 0 to 1")) {
            try ErrorModel.Outliers(probability: 1.5, distance: 10)
        }
        #expect(throws: SimulationError.invalidValue("--outliers", farthest)) {
            try ErrorModel.Outliers(probability: 0.1, distance: -10)
        }
        #expect(throws: SimulationError.invalidValue("--noise", range)) {
            try ErrorModel(noise: .nan)
        }
        // Past a quarter of the Earth a fix is anywhere; past 1e154 σ² was infinite and the fixes not numbers.
        for huge in [10_000_001, 1e154, 1e308, .infinity] {
            #expect(throws: SimulationError.invalidValue("--noise", range)) { try model.overriding(noise: huge) }
            #expect(throws: SimulationError.invalidValue("--bias", range)) { try model.overriding(bias: huge) }
            #expect(throws: SimulationError.invalidValue("--outliers", farthest)) {
                try ErrorModel.Outliers(probability: 0.1, distance: huge * 2)
            }
        }
        #expect(try model.overriding(noise: 10_000_000, bias: 10_000_000).deviation > 14_000_000)
        #expect(try ErrorModel.Outliers(probability: 1, distance: 20_000_000).distance == 20_000_000)
    }

    @Test func profilesHaveTheirSpeeds() {
        #expect(MotionProfile.allCases.map(\.speed) == [1.4, 4.5, 13.9])
        #expect(MotionProfile(rawValue: "bike") == .bike)
    }
}
