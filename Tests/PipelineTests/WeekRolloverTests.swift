import FeedParsing
import GeoCore
import Pipeline
import Testing

/// A receiver whose GPS week number rolled over: found from its first time
/// against the computer's clock, and corrected by whole eras of 1024 weeks.
@Suite("GPS week-number rollover")
struct WeekRolloverTests {
    static let week: Int64 = 7 * 86_400 * 1_000_000_000
    static let clock = Timestamp(nanoseconds: 1_796_630_400 * 1_000_000_000)  // 2026-12-07T08:00:00Z

    @Test("one or two eras behind, to within a day, is a rollover; anything else is the receiver's own time")
    func found() {
        for (behind, eras) in [(1024 * Self.week, 1), (1024 * Self.week - 3_600_000_000_000, 1), (2048 * Self.week, 2)] {
            let rollover = WeekRollover(receiverTime: Timestamp(nanoseconds: Self.clock.nanoseconds - behind), clock: Self.clock)
            #expect(rollover?.eras == eras, "\(behind)")
        }
        for behind in [
            Int64(0), 3_600_000_000_000, -1024 * Self.week, 1024 * Self.week + 2 * 86_400_000_000_000, 3072 * Self.week,
        ] {
            #expect(WeekRollover(receiverTime: Timestamp(nanoseconds: Self.clock.nanoseconds - behind), clock: Self.clock) == nil)
        }
        // Times at the ends of what a feed holds, far apart, are none either.
        #expect(WeekRollover(receiverTime: Timestamp(nanoseconds: .min), clock: Timestamp(nanoseconds: .max)) == nil)
        // A recording from 1994 or 2007 is not mistaken for one.
        for old in ["1994-03-23T12:35:19Z", "2007-04-08T09:53:01Z"] {
            #expect(WeekRollover(receiverTime: RFC3339.parse(old)!, clock: Self.clock) == nil)
        }
    }

    @Test("the fixes' and the no-fix epochs' times move on by the eras; the warning says from which date")
    func corrected() throws {
        // 2007-04-23T08:00:00.5Z: 1024 weeks before 2026-12-07.
        let receiverTime = try #require(RFC3339.parse("2007-04-23T08:00:00.5Z"))
        let rollover = try #require(WeekRollover(receiverTime: receiverTime, clock: Self.clock))
        var batch = FeedBatch()
        batch.fixes = [
            Fix(time: receiverTime, coordinate: Coordinate(latitude: 48.1, longitude: 11.5)),
            Fix(time: nil, coordinate: Coordinate(latitude: 48.1, longitude: 11.5)),
        ]
        batch.epochsWithoutFix = [EpochWithoutFix(time: receiverTime.adding(seconds: 1))]
        rollover.correct(&batch)
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == ["2026-12-07T08:00:00.5Z", nil])
        #expect(batch.epochsWithoutFix.map { RFC3339.format($0.time) } == ["2026-12-07T08:00:01.5Z"])
        #expect(
            rollover.warning(source: "/dev/ttyUSB0 at 4800 baud")
                == "warning: /dev/ttyUSB0 at 4800 baud: the receiver's date 2007-04-23 is 1024 weeks behind this computer's "
                + "clock: its GPS week number has rolled over (an older receiver's firmware); its times are read 1024 weeks "
                + "later, from 2026-12-07")
    }
}
