import Foundation
import GeoCore
import Recurrence

/// Human-readable dates and spans for tables.
public enum LocalText {
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2025-04-14 09:00 +02:00`: the wall-clock time in `zone` and its
    /// offset; `2025-04-14 09:00:30 +02:00` with `seconds`.
    public static func dateTime(_ date: Date, in zone: TimeZone, seconds: Bool = false) -> String {
        let parts = local(date, in: zone)
        let offset = zone.utcOffset(at: date)
        let sign = offset < 0 ? "-" : "+"
        let zoneText = offset == 0 ? "UTC" : sign + two(abs(offset) / 3600) + ":" + two(abs(offset) / 60 % 60)
        let second = seconds ? ":" + two(parts.second) : ""
        return "\(parts.year)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))\(second) \(zoneText)"
    }

    /// `Mon 14 Apr 09:00`: short, in `zone`; with the year
    /// (`Sat  2 Mar 2024 08:00`) when it is not the year of `now` there.
    public static func short(_ date: Date, in zone: TimeZone, now: Date) -> String {
        let parts = local(date, in: zone)
        let year = parts.year == local(now, in: zone).year ? "" : " \(parts.year)"
        return "\(weekdays[parts.weekday]) \(parts.day < 10 ? " " : "")\(parts.day) \(months[parts.month - 1])\(year) "
            + "\(two(parts.hour)):\(two(parts.minute))"
    }

    /// `3d 4h`, `5h 12m`, `40m`, `30s`: two units at most.
    public static func span(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        let days = total / 86_400, hours = total / 3600 % 24, minutes = total / 60 % 60
        if days >= 14 { return "\(days)d" }
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        if minutes > 0 { return "\(minutes)m" }
        return "\(total)s"
    }

    private static func local(
        _ date: Date, in zone: TimeZone
    )
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int)
    {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.utcOffset(at: date)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let civil = CivilCalendar.date(fromDays: days)
        return (
            civil.year, civil.month, civil.day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60,
            ((days + 3) % 7 + 7) % 7
        )
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension Schedule {
    /// ``summary`` with a one-off's due time in `zone`, as the task's other
    /// times are shown: `once, due 2025-07-31 18:00 +02:00`.
    public func summary(in zone: TimeZone) -> String {
        guard case .once(let due) = self else { return summary }
        return "once, due \(LocalText.dateTime(due, in: zone))"
    }
}
