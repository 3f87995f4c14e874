import FeedParsing
import GeoCore

/// A serial receiver whose GPS week number has rolled over.
///
/// GPS counts weeks in 10 bits: every 1024 weeks (19.6 years; the last
/// time in April 2019) the count starts again, and a receiver whose
/// firmware does not know which era it is in reports dates 1024 weeks (or
/// twice that) in the past, with the right time of day. `live` takes the
/// receiver's time as its clock, so every task would look years away. When
/// the receiver's first fix is that far behind the computer's clock, to
/// within a day, its times are read that much later (those of epochs
/// without a fix too, from then on).
public struct WeekRollover: Sendable, Equatable {
    /// Whole eras of 1024 weeks the receiver is behind.
    public let eras: Int
    /// The receiver's first time, as it gave it.
    public let receiverTime: Timestamp

    /// One era of the GPS week number, in nanoseconds.
    static let era: Int64 = 1024 * 7 * 86_400 * 1_000_000_000

    /// The rollover that takes `receiverTime` to within a day of `clock`
    /// (the computer's time), or `nil` when the receiver is not whole eras
    /// behind (a receiver that is right, or a recording from another year).
    public init?(receiverTime: Timestamp, clock: Timestamp) {
        let (behind, overflows) = clock.nanoseconds.subtractingReportingOverflow(receiverTime.nanoseconds)
        guard !overflows else { return nil }
        let eras = Int((Double(behind) / Double(Self.era)).rounded())
        let day: Int64 = 86_400 * 1_000_000_000
        guard (1...2).contains(eras), abs(behind - Int64(eras) * Self.era) <= day else { return nil }
        self.eras = eras
        self.receiverTime = receiverTime
    }

    /// The shift that corrects the receiver's times.
    public var nanoseconds: Int64 { Int64(eras) * Self.era }

    /// Moves the times of `batch` on by the rollover.
    public func correct(_ batch: inout FeedBatch) {
        for index in batch.fixes.indices {
            if let time = batch.fixes[index].time { batch.fixes[index].time = shifted(time) }
        }
        for index in batch.epochsWithoutFix.indices {
            batch.epochsWithoutFix[index].time = shifted(batch.epochsWithoutFix[index].time)
        }
    }

    private func shifted(_ time: Timestamp) -> Timestamp {
        Timestamp(nanoseconds: time.nanoseconds &+ nanoseconds, fractionDigits: time.fractionDigits)
    }

    /// The warning for `source`: what it said, and how it is read.
    public func warning(source: String) -> String {
        let weeks = eras * 1024
        return "warning: \(source): the receiver's date \(Self.day(receiverTime)) is \(weeks) weeks behind this "
            + "computer's clock: its GPS week number has rolled over (an older receiver's firmware); its times are "
            + "read \(weeks) weeks later, from \(Self.day(Timestamp(nanoseconds: receiverTime.nanoseconds &+ nanoseconds)))"
    }

    private static func day(_ time: Timestamp) -> String {
        String(RFC3339.format(time).prefix(10))
    }
}
