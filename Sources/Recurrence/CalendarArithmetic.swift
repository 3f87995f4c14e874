import Foundation
import GeoCore

/// Adding and subtracting ``CalendarDuration``s in a time zone.
///
/// Exact units (s, m, h) add seconds to the instant. Calendar units work on
/// the wall clock: days and weeks move the date and keep the time of day;
/// months and years move the month and clamp the day to the month's length
/// (January 31 + 1 month = February 28 in 2025, February 29 in 2024). The
/// result is resolved by ``WallClock/resolve(in:)``'s policy.
public struct ZonedCalendar: Sendable {
    /// The zone calendar units are counted in.
    public var timeZone: TimeZone { offsets.zone }

    /// The zone's offsets, kept so that every step skips finding them. The
    /// zone is kept there alone: a calendar copied (a task's cycle is
    /// worked out in several) retains one object, not two.
    private let offsets: ZoneOffsetTable

    /// A calendar for `timeZone`.
    public init(timeZone: TimeZone) {
        offsets = ZoneOffsets.table(for: timeZone)
    }

    private init(offsets: ZoneOffsetTable) {
        self.offsets = offsets
    }

    /// A calendar for `timeZone` that remembers the zone's offsets on its
    /// own, not in the table that every calendar of the zone shares: for a
    /// thread that works out many dates beside others, which would take
    /// turns at that table's lock and its count of references. Its copies
    /// share its table.
    public static func unshared(timeZone: TimeZone) -> ZonedCalendar {
        ZonedCalendar(offsets: ZoneOffsetTable(zone: timeZone))
    }

    /// `date` moved by `count` × `duration` (negative counts move back).
    ///
    /// Multiples are computed in one step from `date`, never by repeated
    /// addition, so `Jan 31 + 2 months` is March 31 and not March 28.
    public func adding(_ duration: CalendarDuration, times count: Int = 1, to date: Date) -> Date {
        let steps = duration.value * count
        if let exact = duration.unit.secondsPerUnit {
            return date.addingTimeInterval(Double(exact * Int64(steps)))
        }
        let wall = WallClock(date, in: offsets)
        let shifted: WallClock
        switch duration.unit {
        case .days:
            shifted = WallClock(days: wall.days + steps, secondsOfDay: wall.secondsOfDay, fraction: wall.fraction)
        case .weeks:
            shifted = WallClock(days: wall.days + 7 * steps, secondsOfDay: wall.secondsOfDay, fraction: wall.fraction)
        case .months, .years:
            let months = duration.unit == .years ? 12 * steps : steps
            let civil = wall.civilDate
            let index = civil.year * 12 + (civil.month - 1) + months
            let year = index >= 0 ? index / 12 : (index - 11) / 12
            let month = index - year * 12 + 1
            let day = min(civil.day, CivilCalendar.daysInMonth(year: year, month: month))
            let days = CivilCalendar.days(year: year, month: month, day: day)
            shifted = WallClock(days: days, secondsOfDay: wall.secondsOfDay, fraction: wall.fraction)
        case .seconds, .minutes, .hours:
            preconditionFailure("exact units are handled above")
        }
        return shifted.resolve(in: offsets)
    }

    /// `date` moved back by `duration`.
    public func subtracting(_ duration: CalendarDuration, from date: Date) -> Date {
        adding(duration, times: -1, to: date)
    }

    /// The instant of `time` on the wall-clock day `days` (since 1970-01-01).
    func instant(onDay days: Int, at time: TimeOfDay) -> Date {
        WallClock(days: days, secondsOfDay: time.secondsOfDay).resolve(in: offsets)
    }

    /// The wall-clock day (since 1970-01-01) that `date` falls on.
    func day(of date: Date) -> Int { WallClock(date, in: offsets).days }
}
