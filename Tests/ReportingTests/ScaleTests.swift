import GeoCore
import Reporting
import Testing

@Suite struct ScaleTests {
    @Test func linearTicksAreRound() {
        let scale = LinearScale(domain: 0...1, from: 100, to: 500)
        #expect(scale.ticks(count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(scale.position(0.25) == 200)
        let y = LinearScale(domain: 0...360, from: 300, to: 0)
        #expect(y.ticks(count: 4) == [0, 100, 200, 300])
        #expect(y.position(360) == 0)
        #expect(LinearScale.niceStep(atMost: 240) == 200)
        #expect(LinearScale.niceStep(atMost: 0.7) == 0.5)
        #expect(LinearScale.niceStep(atMost: 1000) == 1000)
    }

    @Test func timeTicksFallOnRoundTimes() {
        // 2020-12-11T06:15:50Z to 2021-01-18T06:24:00Z: weekly ticks on Mondays.
        let start = Timestamp(secondsSince1970: 1_607_667_350), end = Timestamp(secondsSince1970: 1_610_951_040)
        let weeks = TimeScale(from: start, to: end, left: 0, right: 700).ticks(count: 7)
        #expect(weeks.map(\.label) == ["2020-12-14", "2020-12-21", "2020-12-28", "2021-01-04", "2021-01-11", "2021-01-18"])
        let days = TimeScale(from: start, to: start.adding(seconds: 4 * 86400), left: 0, right: 700).ticks(count: 7)
        #expect(days.map(\.label) == ["2020-12-12", "2020-12-13", "2020-12-14", "2020-12-15"])
        let hours = TimeScale(from: start, to: start.adding(seconds: 5 * 3600), left: 0, right: 700).ticks(count: 6)
        #expect(hours.map(\.label) == ["12-11 07:00", "08:00", "09:00", "10:00", "11:00"])
        let months = TimeScale(from: start, to: start.adding(seconds: 300 * 86400), left: 0, right: 700).ticks(count: 6)
        #expect(months.map(\.label) == ["2021-01", "2021-03", "2021-05", "2021-07", "2021-09"])
    }
}
