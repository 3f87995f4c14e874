import GeoCore

/// Deterministic text for numbers, distances and times in reports
/// (no locale, no Foundation formatter: the same bytes everywhere).
public enum Format {
    /// `value` rounded to `decimals` places, without trailing zeros:
    /// `number(12.30, decimals: 2)` is `12.3`, `number(-0.04)` is `0`.
    public static func number(_ value: Double, decimals: Int = 1) -> String {
        let decimals = max(0, min(decimals, 9))
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return value.isFinite ? "\(value)" : "0" }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        var text = (units < 0 ? "-" : "") + String(abs(units) / scale)
        guard decimals > 0 else { return text }
        let fraction = String(abs(units) % scale)
        var digits = String(repeating: "0", count: decimals - fraction.count) + fraction
        while digits.last == "0" { digits.removeLast() }
        if !digits.isEmpty { text += "." + digits }
        return text
    }

    /// `value` with exactly `decimals` places: `fixed(0.93, decimals: 3)`
    /// is `0.930`, as a table's column of ratios is written.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var text = number(value, decimals: decimals)
        guard decimals > 0 else { return text }
        if !text.contains(".") { text += "." }
        let places = text.count - 1 - text.distance(from: text.startIndex, to: text.firstIndex(of: ".")!)
        return text + String(repeating: "0", count: max(decimals - places, 0))
    }

    /// A distance for a label: `850 m`, `1.5 km`, `12 km`.
    public static func metres(_ metres: Double) -> String {
        if abs(metres) < 1000 { return number(metres, decimals: metres < 10 ? 1 : 0) + " m" }
        return number(metres / 1000, decimals: abs(metres) < 10_000 ? 1 : 0) + " km"
    }

    /// A UTC time to the minute: `2020-12-11 06:18`.
    public static func minute(_ time: Timestamp) -> String { minute(secondsSince1970: time.secondsSince1970) }

    /// ``minute(_:)`` of an instant that a ``Timestamp`` may not hold (a
    /// task's due date in 2500, its start in 1500): any within 2^62
    /// seconds (145 billion years) of 1970, in the proleptic Gregorian
    /// calendar; those beyond are "far in the future" or "past".
    public static func minute(secondsSince1970: Double) -> String {
        guard abs(secondsSince1970) < 0x1p62 else {
            return secondsSince1970 > 0 ? "far in the future" : "far in the past"
        }
        let (days, seconds) = split(secondsSince1970)
        return day(days) + " " + twoDigits(seconds / 3600) + ":" + twoDigits(seconds % 3600 / 60)
    }

    /// A UTC time to the second: `2020-12-11 06:18:37 UTC`.
    public static func second(_ time: Timestamp) -> String {
        let (_, seconds) = split(time)
        return minute(time) + ":" + twoDigits(seconds % 60) + " UTC"
    }

    /// A UTC date: `2020-12-11`.
    public static func date(_ time: Timestamp) -> String { day(split(time).days) }

    /// A duration for a label: `45 s`, `12 min`, `5.5 h`, `3 d`.
    public static func duration(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        if magnitude < 120 { return number(seconds, decimals: 0) + " s" }
        if magnitude < 7200 { return number(seconds / 60, decimals: 0) + " min" }
        if magnitude < 172_800 { return number(seconds / 3600, decimals: 1) + " h" }
        return number(seconds / 86400, decimals: 1) + " d"
    }

    /// Whole days since 1970 and seconds into the day, in UTC.
    static func split(_ time: Timestamp) -> (days: Int, seconds: Int) { split(time.secondsSince1970) }

    /// ``split(_:)`` of seconds since 1970, which must be within ±2^62.
    static func split(_ secondsSince1970: Double) -> (days: Int, seconds: Int) {
        let total = Int(secondsSince1970.rounded(.down))
        let days = total >= 0 ? total / 86400 : (total - 86399) / 86400
        return (days, total - days * 86400)
    }

    static func day(_ days: Int) -> String {
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        let digits = String(abs(year))
        let yearText = (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return yearText + "-" + twoDigits(month) + "-" + twoDigits(day)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}
