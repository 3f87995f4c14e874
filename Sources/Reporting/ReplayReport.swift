import GeoCore

/// The report of a replay (`replay --report FILE.html`): what happened,
/// as a page with a summary, a map and a timeline per task.
///
/// The caller (the pipeline's report sink) collects the facts — tracks
/// already decimated, regions, events with bounded counts, task cycles —
/// and this type turns them into one self-contained HTML page
/// (``ReportPage``). Every text from files is escaped by the writers.
public struct ReplayReport: Sendable {
    /// What an event was.
    public enum EventKind: Hashable, Sendable {
        /// A location reminder (an arrival that reminded).
        case locationReminder
        /// A due reminder (time-based).
        case dueReminder
        /// An event that stayed quiet, with DESIGN's `reason`.
        case suppressed(reason: String)
        /// A raw geofence transition: enter, exit, dwell or cross.
        case transition(String)
    }

    /// A reminder, suppression or transition.
    public struct Event: Hashable, Sendable {
        /// What it was.
        public var kind: EventKind
        /// When (feed time).
        public var time: Timestamp
        /// Where, when it happened at a place (the fix that produced it).
        public var coordinate: Coordinate?
        /// The task it concerns, for the timeline.
        public var task: String?
        /// The hover text.
        public var text: String

        /// An event.
        public init(kind: EventKind, time: Timestamp, coordinate: Coordinate?, task: String?, text: String) {
            self.kind = kind
            self.time = time
            self.coordinate = coordinate
            self.task = task
            self.text = text
        }
    }

    /// One cycle of a task. Its dates are seconds since 1970, as a task's
    /// dates may lie in any year (a window that closes in 2500), where a
    /// ``Timestamp`` holds 1678–2262; its completion falls in the replay.
    public struct Cycle: Hashable, Sendable {
        /// Where the cycle starts (the last completion, or the start).
        public var anchor: Double
        /// When its window opens.
        public var windowStart: Double
        /// When it is due.
        public var due: Double
        /// The completion that closed it, if one did.
        public var completed: Timestamp?

        /// A cycle.
        public init(anchor: Double, windowStart: Double, due: Double, completed: Timestamp?) {
            self.anchor = anchor
            self.windowStart = windowStart
            self.due = due
            self.completed = completed
        }
    }

    /// A task with its cycles during the replay.
    public struct Task: Hashable, Sendable {
        /// The task's id (events name it).
        public var id: String
        /// Its title.
        public var title: String
        /// A short description (the schedule).
        public var detail: String
        /// Its cycles that overlap the replay, in order.
        public var cycles: [Cycle]

        /// A task.
        public init(id: String, title: String, detail: String, cycles: [Cycle]) {
            self.id = id
            self.title = title
            self.detail = detail
            self.cycles = cycles
        }
    }

    /// The page's title.
    public var title: String
    /// What was run (feeds, tasks file).
    public var subtitle: String
    /// The time span the timeline shows (the feed's first to last time).
    public var start: Timestamp, end: Timestamp
    /// Each device's track, decimated for drawing (``TrackCollector``).
    public var tracks: [TrackCollector.Track]
    /// The regions watched.
    public var regions: [ReportMap.Region]
    /// The events to draw.
    public var events: [Event]
    /// The tasks, in the order of the tasks file.
    public var tasks: [Task]
    /// The run's counts.
    public var summary: ReportTable
    /// Counts per task.
    public var taskTable: ReportTable
    /// Remarks at the end: what was simplified or left out of the drawing.
    public var notes: [String]
    /// At most this many timeline rows (tasks with events come first).
    public var maximumRows = 40
    /// Reminders and suppressions on the map get a written label when
    /// there are at most this many.
    public var maximumMapLabels = 16

    /// A report of these facts.
    public init(
        title: String, subtitle: String, start: Timestamp, end: Timestamp, tracks: [TrackCollector.Track],
        regions: [ReportMap.Region], events: [Event], tasks: [Task], summary: ReportTable, taskTable: ReportTable,
        notes: [String]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.start = start
        self.end = end
        self.tracks = tracks
        self.regions = regions
        self.events = events
        self.tasks = tasks
        self.summary = summary
        self.taskTable = taskTable
        self.notes = notes
    }

    /// Track colours, one per device in turn (dark, so that marks on them stand out).
    public static let trackColours = ["#3b5b92", "#7b3294", "#1b7837", "#8c510a", "#b2182b", "#35978f", "#555555"]

    /// The page.
    public var html: String {
        var page = ReportPage(title: title, subtitle: subtitle)
        page.section("Summary", summary.markup)
        if !tracks.isEmpty || !regions.isEmpty {
            page.section(
                "Map",
                note: "Where each device went, the places watched (true size), and where reminders, suppressed arrivals "
                    + "and geofence transitions happened. Hover over a mark for what, when and why.", mapMarkup)
        }
        let rows = timelineRows
        if !rows.isEmpty {
            page.section(
                "Timeline per task",
                note: "Each bar is one cycle of a task: grey while it runs, green from when its window opens (an arrival "
                    + "there reminds), red once overdue, until it is completed (black square). Hover for the dates.",
                timelineMarkup(rows))
        }
        if !taskTable.rows.isEmpty { page.section("Reminders per task", taskTable.markup) }
        if !notes.isEmpty {
            var list = Markup()
            list.start("ul", ["class": "notes"])
            for note in notes { list.element("li", text: note) }
            list.end("ul")
            page.section("Notes", list)
        }
        return page.html
    }

    // MARK: Map

    private var mapMarkup: Markup {
        let placed = events.filter { $0.coordinate != nil }
        let labelled = placed.filter { Self.layer($0.kind) > 0 }.count <= maximumMapLabels
        let titles = Dictionary(tasks.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        let marks = placed.map { event -> (Int, ReportMap.Mark) in
            let layer = Self.layer(event.kind)
            let label = labelled && layer > 0 ? Self.label(event, title: event.task.flatMap { titles[$0] } ?? event.task) : nil
            return (
                layer,
                ReportMap.Mark(coordinate: event.coordinate!, style: Self.style(event.kind), tooltip: event.text, label: label)
            )
        }
        let ordered = marks.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        let map = ReportMap(
            tracks: tracks.enumerated().map { index, track in
                ReportMap.Track(
                    label: Self.deviceName(track.device) + " — " + String(track.received) + " fixes",
                    colour: Self.trackColours[index % Self.trackColours.count], segments: track.segments)
            }, regions: regions, marks: ordered)
        var entries: [Legend.Entry] = tracks.prefix(12).enumerated().map { index, track in
            .line(colour: Self.trackColours[index % Self.trackColours.count], label: "track of " + Self.deviceName(track.device))
        }
        if !regions.isEmpty {
            entries.append(.area(fill: ReportMap.regionFill, stroke: ReportMap.regionStroke, label: "place watched (geofence)"))
        }
        entries += Self.legendStyles(events.filter { $0.coordinate != nil }.map(\.kind)).map(Legend.Entry.mark)
        var markup = Legend(entries).markup
        markup.append(map.svg(title: "Map of the replay"))
        return markup
    }

    /// Drawing order: transitions under suppressions under reminders.
    private static func layer(_ kind: EventKind) -> Int {
        switch kind {
        case .transition: return 0
        case .suppressed: return 1
        case .dueReminder, .locationReminder: return 2
        }
    }

    /// The style of an event kind.
    public static func style(_ kind: EventKind) -> MarkStyle {
        switch kind {
        case .locationReminder: return ReplayStyles.location
        case .dueReminder: return ReplayStyles.due
        case .suppressed(let reason): return ReplayStyles.suppressed(reason)
        case .transition("exit"): return ReplayStyles.exit
        case .transition("dwell"): return ReplayStyles.dwell
        case .transition("cross"): return ReplayStyles.cross
        case .transition: return ReplayStyles.enter
        }
    }

    /// The distinct styles of `kinds`, reminders first, then suppressions,
    /// then transitions.
    private static func legendStyles(_ kinds: [EventKind]) -> [MarkStyle] {
        var seen: Set<String> = []
        var styles: [(Int, MarkStyle)] = []
        for kind in kinds {
            let style = style(kind)
            if seen.insert(style.label).inserted { styles.append((2 - layer(kind), style)) }
        }
        return styles.sorted { ($0.0, $0.1.label) < ($1.0, $1.1.label) }.map(\.1)
    }

    /// `2020-12-18 06:18 reminded: Buy cat medicine`.
    private static func label(_ event: Event, title: String?) -> String {
        let what: String
        switch event.kind {
        case .locationReminder: what = "reminded"
        case .dueReminder: what = "due"
        case .suppressed(let reason): what = reason
        case .transition(let kind): what = kind
        }
        return Format.minute(event.time) + " " + what + (title.map { ": " + Timeline.cut($0, to: 28) } ?? "")
    }

    static func deviceName(_ device: String) -> String { device.isEmpty ? "the device" : device }

    // MARK: Timeline

    private var timelineRows: [Timeline.Row] {
        var byTask: [String: [Timeline.Mark]] = [:]
        var order: [String] = []
        for event in events {
            guard let task = event.task else { continue }
            if byTask[task] == nil { order.append(task) }
            byTask[task, default: []].append(Timeline.Mark(time: event.time, style: Self.style(event.kind), tooltip: event.text))
        }
        let known = Set(tasks.map(\.id))
        var rows: [(hasEvents: Bool, row: Timeline.Row)] = tasks.map { task in
            let marks = byTask[task.id] ?? []
            return (
                !marks.isEmpty,
                Timeline.Row(label: task.title, detail: task.detail, spans: spans(task), marks: completions(task) + marks)
            )
        }
        rows += order.filter { !known.contains($0) }.map { id in
            (true, Timeline.Row(label: id, detail: "always due (no tasks file)", spans: [], marks: byTask[id] ?? []))
        }
        let withEvents = rows.filter(\.hasEvents) + rows.filter { !$0.hasEvents }
        return withEvents.prefix(maximumRows).map(\.row)
    }

    private func timelineMarkup(_ rows: [Timeline.Row]) -> Markup {
        var kinds: [EventKind] = []
        for event in events where event.task != nil { kinds.append(event.kind) }
        var entries = [ReplayStyles.waiting, ReplayStyles.window, ReplayStyles.overdue].map(\.legendEntry)
        entries.append(.mark(ReplayStyles.completion))
        entries += Self.legendStyles(kinds).map(Legend.Entry.mark)
        var markup = Legend(entries).markup
        let padding = max((end.secondsSince1970 - start.secondsSince1970) * 0.02, 60)
        markup.append(
            Timeline(start: start.adding(clampedSeconds: -padding), end: end.adding(clampedSeconds: padding), rows: rows).svg(
                title: "Timeline per task"))
        let hidden = tasks.count + Set(events.compactMap(\.task)).subtracting(tasks.map(\.id)).count - rows.count
        if hidden > 0 {
            markup.element("p", ["class": "note"], text: String(hidden) + " more tasks not shown (tasks with events come first).")
        }
        return markup
    }

    private func spans(_ task: Task) -> [Timeline.Span] {
        var spans: [Timeline.Span] = []
        for cycle in task.cycles {
            let stop = cycle.completed ?? end
            let text =
                "cycle from " + Format.minute(secondsSince1970: cycle.anchor) + ", window opens "
                + Format.minute(secondsSince1970: cycle.windowStart) + ", due " + Format.minute(secondsSince1970: cycle.due)
                + (cycle.completed.map { ", completed " + Format.minute($0) } ?? "") + " (UTC)"
            // Drawn on the replay's axis, which clips them: a date beyond a timestamp's years stands at its end.
            let anchor = Timestamp(clampingSecondsSince1970: cycle.anchor)
            let windowStart = Timestamp(clampingSecondsSince1970: cycle.windowStart)
            let due = Timestamp(clampingSecondsSince1970: cycle.due)
            if windowStart > anchor {
                spans.append(.init(start: anchor, end: min(windowStart, stop), style: ReplayStyles.waiting, tooltip: text))
            }
            if stop > windowStart {
                spans.append(.init(start: windowStart, end: min(due, stop), style: ReplayStyles.window, tooltip: text))
            }
            if stop > due {
                spans.append(.init(start: due, end: stop, style: ReplayStyles.overdue, tooltip: text))
            }
        }
        return spans
    }

    private func completions(_ task: Task) -> [Timeline.Mark] {
        task.cycles.compactMap(\.completed).map {
            Timeline.Mark(time: $0, style: ReplayStyles.completion, tooltip: "completed " + Format.second($0))
        }
    }
}
