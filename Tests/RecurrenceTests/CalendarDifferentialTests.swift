import Foundation
import Recurrence
import Testing

/// `ZonedCalendar` against a slow model of DESIGN.md's policy built on
/// ICU's offsets alone: a wall-clock time that exists once is that
/// instant, one that exists twice is the first, one that does not exist
/// moves forward by the gap.
@Suite("Calendar days against a model of the skipped/repeated policy")
struct CalendarDifferentialTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia",
        "America/Sao_Paulo", "Africa/Casablanca", "Europe/Moscow", "America/St_Johns", "UTC",
    ]

    /// The instant of the wall-clock reading `wall` (local seconds since
    /// 1970) in `zone`, by trying every offset the zone has nearby.
    static func modelInstant(wall: Int, in zone: TimeZone) -> Int {
        func offset(_ instant: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
        let nearby = Set(stride(from: wall - 172_800, through: wall + 172_800, by: 1_800).map(offset))
        let valid = nearby.map { wall - $0 }.filter { wall - offset($0) == $0 }
        if let first = valid.min() { return first }
        // Skipped: read with the offset in force just before the gap.
        var gap = Date(timeIntervalSince1970: Double(wall - 172_800))
        while let next = zone.nextDaylightSavingTimeTransition(after: gap), next.timeIntervalSince1970 < Double(wall + 172_800) {
            gap = next
            let before = offset(Int(next.timeIntervalSince1970) - 1), after = offset(Int(next.timeIntervalSince1970))
            if after > before, (Int(next.timeIntervalSince1970) + before..<Int(next.timeIntervalSince1970) + after).contains(wall)
            {
                return wall - before
            }
        }
        Issue.record("no instant and no gap for wall-clock \(wall) in \(zone.identifier)")
        return wall
    }

    @Test("adding days and weeks near every transition 1990–2035 and at random instants", arguments: zones)
    func addingDays(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let calendar = ZonedCalendar(timeZone: zone)
        var generator = SystemRandomNumberGenerator()
        var instants = (0..<150).map { _ in Int.random(in: 0...2_100_000_000, using: &generator) }
        var cursor = Date(timeIntervalSince1970: 631_152_000)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < 2_051_222_400 {
            let t = Int(next.timeIntervalSince1970)
            instants += [t - 86_400 - 1_800, t - 86_400 + 600, t - 3 * 86_400, t + Int.random(in: -200_000...200_000)]
            cursor = next
        }
        for instant in instants {
            let date = Date(timeIntervalSince1970: Double(instant))
            let wall = instant + zone.secondsFromGMT(for: date)
            for (duration, days) in [(CalendarDuration(1, .days), 1), (.init(3, .days), 3), (.init(1, .weeks), 7)] {
                for times in [1, -1] {
                    let expected = Self.modelInstant(wall: wall + times * days * 86_400, in: zone)
                    let got = calendar.adding(duration, times: times, to: date).timeIntervalSince1970
                    #expect(got == Double(expected), "\(identifier): \(date) + \(times) × \(duration)")
                }
            }
        }
    }
}
