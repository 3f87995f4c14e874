import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence
import TaskStore

/// One replay or live run: the ``ReminderPipeline`` and its sinks (lines
/// on stdout, the `--exec` hook, the GeoJSON map, the store's log), with
/// pacing on the wall clock for `--speed`.
///
/// The feed's own time is the clock: the pipeline fires due reminders at
/// their own time between fixes, then the fix's transitions go through
/// the recurrence gate.
struct ReplaySession {
    /// What to print besides the reminders.
    struct Printing {
        /// Print raw transitions (enter, exit, dwell, cross).
        var transitions: Bool
        /// Print reminders (location, due); off for `--transitions` without tasks.
        var reminders: Bool
        /// Print suppressed arrivals and dues with their reason.
        var explain: Bool
        /// JSON lines instead of a table.
        var json: Bool
    }

    /// The limits a run evaluates, for the summary's account of them.
    struct Limits {
        var monitor: Int?
        var pending: Int?
        var maxAccuracy: Double
    }

    private var pipeline: ReminderPipeline
    private var events: [ReminderPipeline.Event] = []
    private let printing: Printing
    private let limits: Limits
    private var hook: ExecHook?
    private var map: GeoJSONSink?
    /// Feed seconds per wall-clock second (`--speed`); `nil` runs flat out.
    var pace: Double?
    private var paceOrigin: (feed: Double, wall: Date)?
    /// Where reminders are logged (`live` with tasks from the store), and
    /// the ids of the store's tasks (reminders of always-due regions are
    /// logged without a task).
    var log: (database: TaskDatabase, taskIDs: Set<String>)?
    private var lastPosition: Coordinate?
    /// Buffered standard output.
    var output = ByteOutput.standardOutput
    private let started = Date()
    /// Skipped fixes seen so far, so that only the first few are reported.
    private var warned = (untimed: 0, late: 0)

    init(pipeline: ReminderPipeline, printing: Printing, limits: Limits, exec: String?, geojson: String?) throws {
        hook = exec.map { ExecHook(command: $0) }
        map = try geojson.map { try GeoJSONSink(path: $0, regions: pipeline.regions) }
        self.pipeline = pipeline
        self.printing = printing
        self.limits = limits
        if !printing.json { output.write(ReplayLines.header) }
    }

    /// A session over `tasks` and the bulk `regions` with the settings of
    /// the reminder and geofence flags.
    init(
        tasks: [RecurringTask], regions: [Region], reminder: ReminderOptions, geofence: GeofenceOptions,
        printing: Printing, geojson: String?
    ) throws {
        let settings = try geofence.settings()
        let pipeline = ReminderPipeline(
            reminders: ReminderStage(tasks: tasks, regions: regions, settings: reminder.settings), geofence: settings,
            reorderSeconds: try geofence.reorderSeconds(), monitorLimit: reminder.monitorLimit)
        try self.init(
            pipeline: pipeline, printing: printing,
            limits: Limits(monitor: reminder.monitorLimit, pending: reminder.pendingLimit, maxAccuracy: settings.maxAccuracy),
            exec: reminder.exec, geojson: geojson)
    }

    /// The number of fixes evaluated so far.
    var fixesEvaluated: Int { pipeline.statistics.detector.accepted }

    /// The latest feed time evaluated, if any.
    private(set) var feedTime: Timestamp?

    /// Takes decoded fixes of `feed`, in feed order.
    mutating func push(_ fixes: [Fix], feed: String) {
        events.removeAll(keepingCapacity: true)
        for fix in fixes { pipeline.push(fix, into: &events) }
        handleEvents(feed: feed)
    }

    /// Takes new values of the tasks (see ``ReminderStage/update(tasks:)``).
    mutating func update(tasks: [RecurringTask]) { pipeline.update(tasks: tasks) }

    /// Releases what the reorder buffer still holds.
    mutating func finish() {
        events.removeAll(keepingCapacity: true)
        pipeline.finish(into: &events)
        handleEvents(feed: "")
        output.flush()
        map?.finish()
    }

    private mutating func handleEvents(feed: String) {
        for event in events {
            switch event {
            case .untimed:
                warned.untimed += 1
                if warned.untimed <= 5 { Diagnostics.warn("\(feed): a fix without time has no place on the clock; skipped") }
            case .late(let fix):
                warned.late += 1
                if warned.late <= 5 {
                    Diagnostics.warn("\(feed): fix at \(RFC3339.format(fix.time!)) is older than the reorder window; dropped")
                }
            case .fix(let fix):
                if let pace { wait(until: fix.time!.secondsSince1970, pace: pace) }
                feedTime = fix.time
                lastPosition = fix.coordinate
                map?.track(fix)
            case .transition(let transition):
                if printing.transitions { ReplayLines.append(transition, json: printing.json, to: &output) }
                if let lastPosition {
                    map?.point(at: lastPosition, properties: ReplayLines.jsonText(transition), colour: "#888888")
                }
            case .reminder(let decision):
                write(decision)
            }
        }
        output.flushIfFull()
    }

    /// Sleeps until the wall clock has caught up with the feed at `pace`.
    private mutating func wait(until feedSeconds: Double, pace: Double) {
        guard let origin = paceOrigin else {
            paceOrigin = (feedSeconds, Date())
            return
        }
        let due = origin.wall.addingTimeInterval((feedSeconds - origin.feed) / pace)
        let ahead = due.timeIntervalSinceNow
        guard ahead > 0 else { return }
        output.flush()
        Thread.sleep(forTimeInterval: ahead)
    }

    private mutating func write(_ decision: SchedulerOutput) {
        switch decision {
        case .notify(let notification):
            // Logged before it is printed: a kill -9 in between loses the
            // line, never the record.
            if let log { record(notification, in: log) }
            if let lastPosition {
                map?.point(at: lastPosition, properties: ReplayLines.jsonText(notification),
                           colour: notification.kind == .due ? "#d62728" : "#2ca02c")
            }
            if printing.reminders { ReplayLines.append(notification, json: printing.json, to: &output) }
            if hook != nil {
                output.flush()  // the hook's own output comes after the line it is about
                hook!.run(for: notification, json: ReplayLines.jsonText(notification))
            }
        case .suppress(let suppression):
            guard printing.explain else { return }
            if let lastPosition {
                map?.point(at: lastPosition, properties: ReplayLines.jsonText(suppression), colour: "#ff7f0e")
            }
            ReplayLines.append(suppression, json: printing.json, to: &output)
        }
    }

    private func record(_ notification: TaskNotification, in log: (database: TaskDatabase, taskIDs: Set<String>)) {
        do {
            try log.database.log(NotificationRecord(
                taskID: log.taskIDs.contains(notification.taskID) ? notification.taskID : nil,
                kind: notification.kind == .due ? .due : .location,
                firedAt: notification.time, title: notification.title, region: notification.region,
                device: notification.device, distance: notification.distance, windowStart: notification.windowStart,
                due: notification.due, recordedAt: Date()))
        } catch {
            Diagnostics.warn("could not log the reminder in the store: \(error)")
        }
    }

    /// The summary for stderr, after `label` (the command's name): what
    /// was evaluated and decided, what was ignored, and — when a limit is
    /// set or the accuracy gate turned arrivals away — what each limit made
    /// the person miss.
    func summary(_ label: String) -> String {
        let s = pipeline.statistics
        let elapsed = Date().timeIntervalSince(started)
        var text = "\(label): \(s.detector.accepted) fixes evaluated from \(s.devices) device\(s.devices == 1 ? "" : "s"), "
            + "\(s.transitions) transitions, "
            + "\(s.notifications.values.reduce(0, +)) reminders" + Self.list(s.notifications)
        text += ", \(s.suppressions.values.reduce(0, +)) suppressed" + Self.list(s.suppressions)
        text += "; ignored fixes: \(s.detector.inaccurate) inaccurate, \(s.detector.invalid) invalid, "
            + "\(s.untimed + s.detector.untimed) without time, \(s.late + s.detector.outOfOrder) late"
        text += String(format: "; %.2f s", elapsed)
        if elapsed >= 0.05, s.detector.accepted > 0 {  // a rate of a few fixes says nothing
            text += " (\(Self.rate(Double(s.detector.accepted) / elapsed)) fixes/s)"
        }
        var missed: [String] = []
        if let limit = limits.monitor {
            missed.append("--monitor-limit \(limit) missed \(Self.missed("monitor-limit", s)) "
                + "(\(s.monitorRefreshes) refreshes of the monitored set)")
        }
        if let limit = limits.pending {
            missed.append("--pending-limit \(limit) missed \(Self.missed("pending-limit", s))")
        }
        if limits.monitor != nil || limits.pending != nil || s.suppressions["accuracy"] != nil {
            missed.append("the accuracy gate (--max-accuracy \(Self.metres(limits.maxAccuracy))) missed \(Self.missed("accuracy", s))")
        }
        if !missed.isEmpty { text += "\n\(label): limits: " + missed.joined(separator: "; ") }
        return text
    }

    /// `3 reminders of 2 tasks`, or `nothing`.
    private static func missed(_ reason: String, _ s: ReminderPipeline.Statistics) -> String {
        guard let count = s.suppressions[reason], count > 0 else { return "nothing" }
        let tasks = s.missedTasks[reason]?.count ?? 0
        return "\(count) reminder\(count == 1 ? "" : "s") of \(tasks) task\(tasks == 1 ? "" : "s")"
    }

    private static func metres(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) m" : "\(value) m"
    }

    /// 1.23M, 456k or 789.
    private static func rate(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0fk", value / 1e3) }
        return String(format: "%.0f", value)
    }

    /// ` (due 2, location 5)`, or nothing when empty.
    private static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
}
