import Foundation
import GeoCore
import Geofencing
import Recurrence
import Reporting

// The report's facts from what the sink collected.
extension ReportSink {
    /// At most this many cycles of one task are drawn.
    static let cycleLimit = 200

    var report: ReplayReport {
        let start = first ?? Timestamp(secondsSince1970: 0), end = last ?? start
        let names = inputs.feeds.map { ($0 as NSString).lastPathComponent }
        var subtitle = "repeat-sim replay " + names.joined(separator: " ")
        if let file = inputs.tasksFile { subtitle += " --tasks " + (file as NSString).lastPathComponent }
        if let file = inputs.regionsFile { subtitle += " --regions " + (file as NSString).lastPathComponent }
        if first != nil { subtitle += " · " + Format.minute(start) + " to " + Format.minute(end) + " UTC" }
        return ReplayReport(
            title: "Replay of " + (names.count == 1 ? names[0] : String(names.count) + " feeds"), subtitle: subtitle,
            start: start, end: end, tracks: tracks.result, regions: drawnRegions.map(Self.region),
            events: events, tasks: tasks.map { reportTask($0, from: start, to: end) }, summary: summary,
            taskTable: taskTable, notes: notes)
    }

    /// Every region, or past the limit those with transitions, then the
    /// tasks' places, then the rest, up to the limit.
    private var drawnRegions: [Region] {
        guard regions.count > Self.regionLimit else { return Array(regions) }
        let first = regions.indices.filter {
            regionsWithEvents.contains($0) || regions.task(at: $0).map { titles[$0] != nil } ?? false
        }
        let chosen = Set(first.prefix(Self.regionLimit))
        let rest = regions.indices.filter { !chosen.contains($0) }.prefix(Self.regionLimit - chosen.count)
        return (Array(chosen) + rest).sorted().map { regions[$0] }
    }

    private static func region(_ region: Region) -> ReportMap.Region {
        let shape: ReportMap.Shape
        let size: String
        switch region.shape {
        case .circle(let circle):
            shape = .circle(centre: circle.centre, radius: circle.radius)
            size = "radius " + Format.metres(circle.radius)
        case .area(let area):
            shape = .polygons(area.polygons)
            size = "polygon"
        }
        return ReportMap.Region(
            label: region.id, shape: shape, tooltip: region.id + " (" + size + (region.task.map { ", task " + $0 } ?? "") + ")")
    }

    /// The task's cycles from the one in force at `start` to the one in
    /// force at `end`, each closed by the completion that ended it.
    private func reportTask(_ task: RecurringTask, from start: Timestamp, to end: Timestamp) -> ReplayReport.Task {
        let from = Date(timeIntervalSince1970: start.secondsSince1970), to = Date(timeIntervalSince1970: end.secondsSince1970)
        var cycles: [ReplayReport.Cycle] = []
        var current = task.cycle(at: from)
        for completion in task.completions where completion > from && completion <= to {
            guard cycles.count < Self.cycleLimit else { break }
            if let cycle = current { cycles.append(Self.cycle(cycle, completed: completion)) }
            current = task.cycle(at: completion)
        }
        if let cycle = current, cycles.count < Self.cycleLimit { cycles.append(Self.cycle(cycle, completed: nil)) }
        return ReplayReport.Task(
            id: task.id, title: task.title,
            detail: task.schedule.summary(in: task.timeZone) + (task.list.map { " · " + $0 } ?? ""), cycles: cycles)
    }

    private static func cycle(_ cycle: Cycle, completed: Date?) -> ReplayReport.Cycle {
        ReplayReport.Cycle(
            anchor: cycle.anchor.timeIntervalSince1970, windowStart: cycle.windowStart.timeIntervalSince1970,
            due: cycle.due.timeIntervalSince1970,
            completed: completed.map { Timestamp(secondsSince1970: $0.timeIntervalSince1970) })
    }

    private var summary: ReportTable {
        func total(_ match: (ReplayReport.EventKind) -> String?) -> (Int, String) {
            var byName: [String: Int] = [:]
            for (kind, count) in counts { if let name = match(kind) { byName[name, default: 0] += count } }
            let details = byName.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return (byName.values.reduce(0, +), details)
        }
        let reminders = total {
            switch $0 {
            case .locationReminder: return "location"
            case .dueReminder: return "due"
            default: return nil
            }
        }
        let suppressed = total {
            if case .suppressed(let reason) = $0 { return reason }
            return nil
        }
        let transitions = total {
            if case .transition(let kind) = $0 { return kind }
            return nil
        }
        return ReportTable(
            columns: ["", "count", "details"],
            rows: [
                ["reminders", String(reminders.0), reminders.1],
                ["suppressed", String(suppressed.0), suppressed.1],
                ["geofence transitions", String(transitions.0), transitions.1],
                [
                    "fixes replayed", String(tracks.received),
                    untimed + late == 0 ? "" : "\(untimed) without time, \(late) late (dropped)",
                ],
                ["devices", String(devices.count), deviceNames],
                ["places watched", String(regions.count), placeNames],
            ])
    }

    /// The first few devices in the order of their names' words and
    /// numbers (dev2 before dev10).
    private var deviceNames: String {
        let names = devices.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let shown = names.prefix(8).map { $0.isEmpty ? "(unnamed)" : $0 }.joined(separator: ", ")
        return names.count > 8 ? shown + ", …" : shown
    }

    /// The first few distinct region names.
    private var placeNames: String {
        var seen: Set<String> = []
        var names: [String] = []
        for region in regions where seen.insert(region.id).inserted {
            if names.count == 8 { return names.joined(separator: ", ") + ", …" }
            names.append(region.id)
        }
        return names.joined(separator: ", ")
    }

    private var taskTable: ReportTable {
        let ids = tasks.map(\.id) + perTask.keys.filter { titles[$0] == nil }.sorted()
        return ReportTable(
            columns: ["task", "title", "location reminders", "due reminders", "suppressed", "first reminder (UTC)"],
            rows: ids.prefix(200).map { id in
                let counts = perTask[id] ?? TaskCounts()
                return [
                    id, titles[id] ?? id, String(counts.location), String(counts.due), String(counts.suppressed),
                    counts.firstReminder.map(Format.minute) ?? "-",
                ]
            })
    }

    private var notes: [String] {
        var notes = [
            "Tracks are simplified for drawing only (every fix was replayed): \(tracks.received) fixes are drawn through "
                + "at most \(tracks.result.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.count } }) points, every fix "
                + "within \(Format.metres(2 * tracks.tolerance)) of them, plus half a pixel."
        ]
        if counts[.dueReminder] != nil {
            notes.append("Due reminders are time-based, not at a place: they are on the timeline, not on the map.")
        }
        let drawn = Dictionary(grouping: events, by: \.kind).mapValues(\.count)
        let omitted = counts.filter { $0.value > drawn[$0.key, default: 0] }.map { kind, count in
            "\(drawn[kind, default: 0]) of \(count) \(ReplayReport.style(kind).label) events"
        }
        if !omitted.isEmpty {
            notes.append(
                "Drawn, as a sample spread evenly over the run (at most \(Self.eventLimit) of each kind): "
                    + omitted.sorted().joined(separator: "; ")
                    + ".")
        }
        if regions.count > Self.regionLimit {
            notes.append(
                "\(Self.regionLimit) of the \(regions.count) regions are drawn: those with transitions and the tasks' places first."
            )
        }
        if regions.count > Self.regionLimit {
            notes.append(
                "\(Self.regionLimit) of the \(regions.count) regions are drawn: those with transitions and the tasks' places first."
            )
        }
        if tracks.undrawn > 0 { notes.append("\(tracks.undrawn) fixes of devices beyond the drawing's limit are not drawn.") }
        return notes
    }
}
