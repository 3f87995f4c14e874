import Evaluation
import GeoCore
import Testing

@Suite struct SweepAndCoverageTests {
    @Test func theFirstSweepVariesSlowestLikeNestedLoops() throws {
        let grid = try SweepGrid(parsing: ["hysteresis=0,25", "confirm=1,2,3"])
        let settings = grid.settings.map { $0.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
        #expect(
            settings == [
                "hysteresis=0 confirm=1", "hysteresis=0 confirm=2", "hysteresis=0 confirm=3",
                "hysteresis=25 confirm=1", "hysteresis=25 confirm=2", "hysteresis=25 confirm=3",
            ])
        #expect(try SweepGrid(parsing: []).settings.count == 1, "no sweep is one setting")
    }

    @Test func badSweepsSayWhatIsWrong() throws {
        #expect(throws: SweepError.unknownName("hysterisis", suggestion: "hysteresis")) {
            try SweepGrid(parsing: ["hysterisis=10"])
        }
        #expect(throws: SweepError.unknownName("zzz", suggestion: nil)) { try SweepGrid(parsing: ["zzz=1"]) }
        #expect(
            SweepError.unknownName("zzz", suggestion: nil).description
                == "--sweep cannot vary 'zzz' (\(SweepGrid.names.joined(separator: ", ")))")
        #expect(throws: SweepError.malformed("confirm")) { try SweepGrid(parsing: ["confirm"]) }
        #expect(throws: SweepError.noValue("confirm")) { try SweepGrid(parsing: ["confirm=1,,2"]) }
        #expect(throws: SweepError.repeated("pad")) { try SweepGrid(parsing: ["pad=5", "pad=10"]) }
        // Ten thousand settings are kept; one more, or a product past 2^63, is refused before any is made.
        let hundred = (1...100).map(String.init).joined(separator: ",")
        #expect(try SweepGrid(parsing: ["pad=" + hundred, "dwell=" + hundred]).settings.count == 10_000)
        #expect(throws: SweepError.tooManySettings([100, 100, 2])) {
            try SweepGrid(parsing: ["pad=" + hundred, "dwell=" + hundred, "cross=on,off"])
        }
        let axes = SweepGrid.names.map { $0 + "=" + hundred + "," + hundred }
        #expect(throws: SweepError.tooManySettings(Array(repeating: 200, count: 9))) { try SweepGrid(parsing: axes) }
        #expect(
            SweepError.tooManySettings([100, 100, 2]).description
                == "--sweep makes 100 × 100 × 2 settings, more than 10 000: sweep fewer values, or split the sweep over "
                + "several runs")
    }

    @Test func coverageSumsDeviceHoursAndKilometres() {
        let start = Coordinate(latitude: 52.52, longitude: 13.40)
        func track(hours: Double, metres: Double) -> [TruthPoint] {
            let steps = 10
            return (0...steps).map { step in
                TruthPoint(
                    time: Timestamp(secondsSince1970: 1_740_823_200 + hours * 3600 * Double(step) / Double(steps)),
                    coordinate: Geodesy.destination(from: start, bearing: 90, metres: metres * Double(step) / Double(steps)))
            }
        }
        var coverage = TruthCoverage()
        #expect(coverage.per100DeviceHours(3) == nil)
        coverage.add(track(hours: 2, metres: 5_000))
        coverage.add(track(hours: 3, metres: 1_000))
        coverage.add([TruthPoint]())
        #expect(abs(coverage.deviceHours - 5) < 1e-9)
        #expect(abs(coverage.kilometres - 6) < 1e-6)
        #expect(abs(coverage.per100DeviceHours(2)! - 40) < 1e-9)
    }
}
