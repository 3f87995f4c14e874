import Foundation
import GeoCore

/// What can be wrong with the text or values that describe a task.
///
/// Each case names the offending text, so a message can say exactly what
/// to fix: `"banana" is not a duration`.
public enum RecurrenceError: Error, Equatable, Sendable {
    /// Text that is not a duration such as `45s`, `2w` or `1mo`.
    case invalidDuration(String)
    /// Text that is not an IANA time zone identifier.
    case invalidTimeZone(String)
    /// Text that is not a weekday name.
    case invalidWeekday(String)
    /// Text that is not a time of day `HH:MM`.
    case invalidTimeOfDay(String)
    /// Text that is not an RFC 3339 date-time.
    case invalidDate(String)
    /// A schedule whose values contradict each other, with the reason.
    case invalidSchedule(String)
}

extension RecurrenceError: CustomStringConvertible {
    /// A sentence that names the bad text and shows what would be right.
    public var description: String {
        switch self {
        case .invalidDuration(let text):
            return "\"\(text)\" is not a duration: write a whole number and a unit, "
                + "e.g. 45s, 30m, 6h, 3d, 2w, 1mo or 1y"
        case .invalidTimeZone(let text):
            if let zone = Self.zone(near: text) { return "\"\(text)\" is not an IANA time zone; did you mean \(zone)?" }
            return "\"\(text)\" is not an IANA time zone: use an identifier such as "
                + "Europe/Berlin, America/New_York or UTC"
        case .invalidWeekday(let text):
            return "\"\(text)\" is not a weekday: use mon, tue, wed, thu, fri, sat or sun"
        case .invalidTimeOfDay(let text):
            return "\"\(text)\" is not a time of day: use 24-hour HH:MM, e.g. 18:00"
        case .invalidDate(let text):
            return "\"\(text)\" is not a date-time: use RFC 3339, e.g. 2025-03-20T17:45:00+01:00"
        case .invalidSchedule(let reason):
            return reason
        }
    }
}

extension RecurrenceError {
    /// The zone identifier that `text` may have meant: the same but for
    /// case, one a typo or two away (`Europe/Berln`), the zone of a city
    /// (`Berlin`, `new york`), or of an abbreviation (`CEST`).
    static func zone(near text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        let known = TimeZone.knownTimeZoneIdentifiers
        if let near = Spelling.suggestion(for: trimmed, in: known, maximumDistance: max(1, min(3, trimmed.count / 5))) {
            return near
        }
        let city = trimmed.lowercased().replacingOccurrences(of: " ", with: "_")
        if !city.isEmpty, let zone = known.first(where: { $0.lowercased().split(separator: "/").last.map(String.init) == city }) {
            return zone
        }
        return TimeZone.abbreviationDictionary[trimmed.uppercased()]
    }
}
