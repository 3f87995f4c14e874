import Foundation
import Recurrence

/// Parses an RFC 3339 literal in a test; a typo is a programmer error.
func at(_ text: String) -> Date {
    do { return try RFC3339Text.date(text) } catch { preconditionFailure("bad test date \(text)") }
}

let berlin = TimeZone(identifier: "Europe/Berlin")!
let utc = TimeZone(identifier: "UTC")!

func task(
    _ schedule: Schedule, start: String, zone: TimeZone = utc, end: String? = nil,
    lead: CalendarDuration = .oneDay, completions: [String] = []
) -> RecurringTask {
    RecurringTask(
        id: "t", title: "T", timeZone: zone, start: at(start), end: end.map(at), schedule: schedule,
        lead: lead, completions: completions.map(at))
}

func weeks(_ n: Int) -> CalendarDuration { CalendarDuration(n, .weeks) }
