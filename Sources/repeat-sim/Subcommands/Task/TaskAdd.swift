import ArgumentParser
import Foundation
import Pipeline
import Recurrence

/// `repeat-sim task add`: creates a task from flags.
struct TaskAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a task.",
        discussion: """
            Needs --title and one schedule: --after, --every, --weekdays with
            --at-time, or --due. The id defaults to the title in lower case with
            dashes ("Buy cat medicine" → buy-cat-medicine).

            Example:
              repeat-sim task add --title "Buy cat medicine" --list Pets \\
                --time-zone Europe/Berlin --after 10w-14w \\
                --at-place 52.5163,13.3777 --radius 150 --place-name Pharmacy \\
                --last-done 2025-11-01T18:00:00+01:00
            """
    )

    @Option(help: "The task's id (default: derived from the title).")
    var id: String?

    @Option(
        help: ArgumentHelp(
            "When it was last done (a time as for --start): a flexible task's next window counts from then, even before the start.",
            valueName: "time"),
        transform: LocalTimeArgument.parse)
    var lastDone: LocalTimeArgument?

    @OptionGroup var fields: TaskFieldOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard let title = fields.title, !title.isEmpty else { throw ValidationError("--title is required") }
        guard try fields.schedule() != nil else {
            throw ValidationError(
                "give a schedule: --after 10w-14w, --every 2w, --weekdays mon,fri --at-time 18:00, or --due TIME")
        }
        if fields.clearPlaces { throw ValidationError("--clear-places is for `task edit`") }
    }

    func run() async throws {
        let title = fields.title ?? ""
        let taskID = id ?? Self.slug(title)
        guard !taskID.isEmpty else { throw ValidationError("--id is required when the title has no letters or digits") }
        // Without --start a task starts at the current minute: its due
        // times carry no fraction of a second nobody typed.
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        var task = RecurringTask(id: taskID, title: title, start: now, schedule: .once(due: now))
        // "--due 23:59+02:00" without a zone is due at 23:59 in its own zone.
        if fields.timeZone == nil,
            let offset = [fields.due, fields.start].compactMap({ $0.flatMap { LocalTimeText.statedOffset($0.text) } }).first,
            offset != 0, let zone = TimeZone.fixed(secondsEast: offset)
        {
            task.timeZone = zone
        }
        let database = try store.open()
        try fields.apply(to: &task, book: database.places)
        if let lastDone { task.complete(at: try lastDone.date(in: task.timeZone)) }
        try database.add(task)
        print("Added \(task.id.terminalSafe): \(task.title.terminalSafe) (\(task.schedule.summary(in: task.timeZone))).")
        for warning in Self.slips(of: task, startGiven: fields.start != nil, now: Date()) { Console.warn(warning) }
    }

    /// What in a task just added is most likely a slip, though it is kept
    /// as given: a one-off due before the start it was given, or a last
    /// completion in the future (which counts only from then on).
    static func slips(of task: RecurringTask, startGiven: Bool, now: Date) -> [String] {
        let zone = task.timeZone
        var slips: [String] = []
        if startGiven, case .once(let due) = task.schedule, due < task.start {
            slips.append(
                "it is due (\(LocalText.dateTime(due, in: zone))) before it starts "
                    + "(\(LocalText.dateTime(task.start, in: zone))): it is overdue from its start")
        }
        if let done = task.completions.last, done > now {
            slips.append(
                "--last-done \(LocalText.dateTime(done, in: zone)) is in the future: until then the task counts as never done")
        }
        return slips
    }

    /// `Buy cat medicine!` → `buy-cat-medicine`.
    static func slug(_ title: String) -> String {
        var slug = ""
        for character in title.lowercased() {
            if character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        return slug
    }
}
