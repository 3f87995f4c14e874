import ArgumentParser
import Foundation
import GeoCore
import Recurrence

/// A time flag's text, read once the time zone it is local to is known
/// (the task's; else the system's): RFC 3339 with an offset, or a local
/// form such as `2025-06-01T12:00`, `2025-06-01`, `09:00`, `now`, `today`,
/// `yesterday`, `tomorrow 09:00` (see ``LocalTimeText``).
struct LocalTimeArgument: Sendable {
    /// The text as typed.
    let text: String

    /// Checks the text's form (the zone comes later).
    /// - Throws: a `ValidationError` that shows what a time looks like.
    static func parse(_ text: String) throws -> LocalTimeArgument {
        do {
            _ = try LocalTimeText.date(text, in: TimeZone(identifier: "UTC")!, now: Date())
        } catch {
            throw ValidationError(
                "'\(text)' is not a time: write 2025-06-01T12:00 (local), 2025-06-01T12:00:00+02:00, 2025-06-01, "
                    + "09:00, now, today, yesterday or tomorrow 09:00")
        }
        return LocalTimeArgument(text: text)
    }

    /// The instant, local forms read in `zone`.
    func date(in zone: TimeZone) throws -> Date { try LocalTimeText.date(text, in: zone, now: Date()) }
}

/// Parsers for command-line values whose errors name the bad text.
enum ArgumentParsers {
    /// Why `flag`'s `text` was refused as a feed's time, which
    /// ``RFC3339/parse(_:)`` did not read: outside the times a feed can
    /// hold, if it is a time, else `otherwise`.
    static func refusedFeedTime(_ text: String, flag: String, otherwise: String) -> String {
        RFC3339.outsideHeldSpan(text).map { "\(flag) '\(text)' is \($0)" } ?? otherwise
    }

    /// A feed's time given on the command line: RFC 3339, whose seconds a
    /// person may leave out (`2025-03-01T09:00Z`, as a local time may).
    static func feedTime(_ text: String) -> Timestamp? {
        if let time = RFC3339.parse(text) { return time }
        let characters = Array(text)
        guard characters.count > 16, characters[13] == ":", "Zz+-".contains(characters[16]) else { return nil }
        return RFC3339.parse(String(characters[..<16]) + ":00" + String(characters[16...]))
    }

    /// A duration: `45s`, `30m`, `6h`, `3d`, `2w`, `1mo`, `1y`.
    static func duration(_ text: String) throws -> CalendarDuration {
        try CalendarDuration(parsing: text)
    }

    /// A place: `LAT,LON` in degrees.
    static func place(_ text: String) throws -> (latitude: Double, longitude: Double) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
            (-90...90).contains(lat), (-180...180).contains(lon)
        else {
            throw ValidationError("\"\(text)\" is not a place: write LAT,LON in degrees, e.g. 52.5163,13.3777")
        }
        return (lat, lon)
    }
}
