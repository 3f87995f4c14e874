import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// Every field of a task as a flag, shared by `task add` and `task edit`.
///
/// In `edit`, a flag that is not given keeps the field; an empty value
/// (`--list ""`) clears an optional field.
struct TaskFieldOptions: ParsableArguments {
    @Option(help: "What to do, e.g. \"Buy cat medicine\".")
    var title: String?

    @Option(help: "The list (group) the task belongs to.")
    var list: String?

    @Option(help: "Free-form notes.")
    var notes: String?

    @Option(help: "The device or person whose arrivals count (default: everyone).")
    var assignee: String?

    // Unconditional: an offset such as -05:30 is a value, not an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "IANA time zone for calendar units, weekdays and the times shown (default: the offset a --due or --start states, as in 23:59+02:00, else UTC).",
            valueName: "zone"))
    var timeZone: String?

    @Option(
        help: ArgumentHelp(
            "When the first cycle starts (RFC 3339, or local: 2025-06-01T12:00, 2025-06-01, 09:00, now, today, tomorrow 09:00; local times in --time-zone). (default: now)",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var start: LocalTimeArgument?

    @Option(
        help: ArgumentHelp(
            "After this the task is finished (a time as for --start, local times in --time-zone; \"\" clears it).",
            valueName: "time"),
        transform: { $0.isEmpty ? LocalTimeArgument(text: "") : try LocalTimeArgument.parse($0) })
    var end: LocalTimeArgument?

    @Option(help: ArgumentHelp("Start new after tap: MIN-MAX (e.g. 10w-14w) or one interval (2w).", valueName: "min-max"))
    var after: String?

    @Option(
        help: ArgumentHelp("Start new in time: every interval from the start (e.g. 2w, 1mo).", valueName: "interval"),
        transform: ArgumentParsers.duration)
    var every: CalendarDuration?

    @Option(help: ArgumentHelp("Repeat on these days (mon,wed,fri); needs --at-time.", valueName: "days"))
    var weekdays: String?

    @Option(name: .customLong("at-time"), help: ArgumentHelp("Time of day for --weekdays (18:00).", valueName: "hh:mm"))
    var atTime: String?

    @Option(
        help: ArgumentHelp("A one-off deadline (a time as for --start, local times in --time-zone).", valueName: "time"),
        transform: LocalTimeArgument.parse)
    var due: LocalTimeArgument?

    @Option(
        help: ArgumentHelp("How long before the window an arrival may remind (default 24h).", valueName: "duration"),
        transform: ArgumentParsers.duration)
    var lead: CalendarDuration?

    // Taken whatever it starts with: a latitude south of the equator begins with a "-".
    @Option(
        name: .customLong("at-place"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A place: LAT,LON, or the name of a place in the place book (`place import`), whose position, radius and name are copied (repeatable).",
            valueName: "lat,lon|name"))
    var places: [String] = []

    @Option(
        name: .customLong("radius"),
        help: ArgumentHelp(
            "Radius in metres of each --at-place, in order (default: a named place's own, else 100).", valueName: "metres"))
    var radii: [Double] = []

    @Option(name: .customLong("place-name"), help: ArgumentHelp("Name of each --at-place, in order.", valueName: "name"))
    var placeNames: [String] = []

    @Flag(help: "Remove every place of the task (edit; combine with --at-place to replace them).")
    var clearPlaces = false

    /// The schedule the flags describe, if any schedule flag was given.
    func schedule(in zone: TimeZone = TimeZone(identifier: "UTC")!) throws -> Schedule? {
        var chosen: [Schedule] = []
        if let after {
            let parts = after.split(separator: "-", maxSplits: 1).map(String.init)
            let min = try CalendarDuration(parsing: parts[0])
            let max = parts.count == 2 ? try CalendarDuration(parsing: parts[1]) : min
            // The core's checks, in the words of the flag rather than of the tasks file.
            guard max.value > 0 else { throw ValidationError("--after needs an interval greater than zero (got \(after))") }
            guard min.approximateSeconds <= max.approximateSeconds else {
                throw ValidationError("--after \(after): \(min) is longer than \(max); write MIN-MAX, e.g. \(max)-\(min)")
            }
            chosen.append(.afterCompletion(min: min, max: max))
        }
        if let every {
            guard every.value > 0 else { throw ValidationError("--every needs an interval greater than zero (got \(every))") }
            chosen.append(.fixed(every: every))
        }
        if let weekdays {
            guard let atTime else { throw ValidationError("--weekdays needs --at-time HH:MM, e.g. --at-time 18:00") }
            let days = try weekdays.split(separator: ",").map { try Weekday(parsing: String($0)) }
            guard !days.isEmpty else { throw ValidationError("--weekdays needs at least one day, e.g. mon,wed,fri") }
            chosen.append(.weekdays(Set(days), at: try TimeOfDay(parsing: atTime)))
        } else if atTime != nil {
            throw ValidationError("--at-time goes with --weekdays")
        }
        if let due { chosen.append(.once(due: try due.date(in: zone))) }
        guard chosen.count <= 1 else {
            throw ValidationError("give one schedule: --after, --every, --weekdays or --due")
        }
        try chosen.first?.validate()
        return chosen.first
    }

    /// The places the flags describe; a name is looked up in `book`
    /// (read only when a name is given).
    func locations(book: () throws -> [NamedPlace]) throws -> [TaskLocation] {
        guard radii.count <= places.count, placeNames.count <= places.count else {
            throw ValidationError("each --radius and --place-name belongs to an --at-place given before it")
        }
        var named: [NamedPlace]?
        return try places.enumerated().map { index, text in
            let given = index < radii.count ? radii[index] : nil
            if let given, !(given > 0 && given.isFinite) {
                throw ValidationError("--radius must be a positive number of metres")
            }
            let givenName = index < placeNames.count ? placeNames[index] : nil
            guard Self.isName(text) else {
                let place = try ArgumentParsers.place(text)
                return TaskLocation(
                    name: givenName ?? "Place \(index + 1)", latitude: place.latitude, longitude: place.longitude,
                    radius: given ?? 100)
            }
            if named == nil { named = try book() }
            let place = try named!.place(named: text)
            return TaskLocation(
                name: givenName ?? place.name, latitude: place.centre.latitude, longitude: place.centre.longitude,
                radius: given ?? place.radius)
        }
    }

    /// Whether an `--at-place` value is a name rather than LAT,LON (which
    /// starts with a digit, a sign or a point).
    static func isName(_ text: String) -> Bool {
        guard let first = text.trimmingCharacters(in: .whitespaces).first else { return false }
        return !(first.isNumber || first == "-" || first == "+" || first == ".")
    }

    /// Applies every given flag to `task`; `book` gives the place book for `--at-place NAME`.
    func apply(to task: inout RecurringTask, book: () throws -> [NamedPlace]) throws {
        if let title {
            guard !title.isEmpty else { throw ValidationError("--title must not be empty") }
            task.title = title
        }
        if let list { task.list = list.isEmpty ? nil : list }
        if let notes { task.notes = notes.isEmpty ? nil : notes }
        if let assignee { task.assignee = assignee.isEmpty ? nil : assignee }
        if let timeZone { task.timeZone = try TimeZone.iana(timeZone) }
        if let start { task.start = try start.date(in: task.timeZone) }
        if let end { task.end = end.text.isEmpty ? nil : try end.date(in: task.timeZone) }
        if let schedule = try schedule(in: task.timeZone) { task.schedule = schedule }
        if let lead { task.lead = lead }
        if clearPlaces { task.locations = [] }
        task.locations += try locations(book: book)
        if let end = task.end, end <= task.start { throw ValidationError("--end must be after the start") }
    }
}
