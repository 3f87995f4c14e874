import Foundation
import GeoCore
import Geofencing
import Pipeline
import Recurrence
import TaskStore

/// One replay: reorder buffer → geofence detector → reminder stage → lines.
///
/// The feed's own time is the clock: before each fix the reminder stage
/// advances to it (due reminders fire at their own time, between fixes),
/// then the fix's transitions go through the recurrence gate.
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

    private var buffer: ReorderBuffer
    private var detector: TransitionDetector
    private var reminders: ReminderStage
    private let printing: Printing
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
    private var counts = ReplayCounts()

    init(
        reminders: ReminderStage, settings: GeofenceSettings, reorderSeconds: Double, printing: Printing, exec: String?,
        geojson: String?
    ) throws {
        hook = exec.map { ExecHook(command: $0) }
        map = try geojson.map { try GeoJSONSink(path: $0, regions: reminders.regions) }
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: reminders.regions, settings: settings)
        self.reminders = reminders
        self.printing = printing
        if !printing.json { output.write(ReplayLines.header) }
    }

    /// Takes one decoded fix of `feed`.
    mutating func push(_ fix: Fix, feed: String) {
        guard fix.time != nil else {
            counts.untimed += 1
            if counts.untimed <= 5 { Diagnostics.warn("\(feed): a fix without time has no place on the clock; skipped") }
            return
        }
        for released in buffer.push(fix) { handle(released, feed: feed) }
    }

    /// Takes new values of the tasks (see ``ReminderStage/update(tasks:)``).
    mutating func update(tasks: [RecurringTask]) { reminders.update(tasks: tasks) }

    /// Releases what the reorder buffer still holds.
    mutating func finish() {
        for released in buffer.finish() { handle(released, feed: "") }
        output.flush()
        map?.finish()
    }

    private mutating func handle(_ released: ReorderBuffer.Output, feed: String) {
        switch released {
        case .late(let fix):
            counts.late += 1
            if counts.late <= 5 {
                Diagnostics.warn("\(feed): fix at \(RFC3339.format(fix.time!)) is older than the reorder window; dropped")
            }
        case .fix(let fix):
            if let pace { wait(until: fix.time!.secondsSince1970, pace: pace) }
            for output in reminders.advance(to: fix.time!) { write(output) }
            lastPosition = fix.coordinate
            map?.track(fix)
            for transition in detector.process(fix) {
                counts.transitions += 1
                if printing.transitions { ReplayLines.append(transition, json: printing.json, to: &output) }
                map?.point(at: fix.coordinate, properties: ReplayLines.jsonText(transition), colour: "#888888")
                for output in reminders.handle(transition) { write(output) }
            }
            output.flushIfFull()
        }
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
            counts.notifications[notification.kind.rawValue, default: 0] += 1
            if let lastPosition {
                map?.point(at: lastPosition, properties: ReplayLines.jsonText(notification),
                           colour: notification.kind == .due ? "#d62728" : "#2ca02c")
            }
            if printing.reminders { ReplayLines.append(notification, json: printing.json, to: &output) }
            if let log {
                do {
                    try log.database.log(NotificationRecord(
                        taskID: log.taskIDs.contains(notification.taskID) ? notification.taskID : nil, kind: notification.kind == .due ? .due : .location,
                        firedAt: notification.time, title: notification.title, region: notification.region,
                        device: notification.device, distance: notification.distance, windowStart: notification.windowStart,
                        due: notification.due, recordedAt: Date()))
                } catch {
                    Diagnostics.warn("could not log the reminder in the store: \(error)")
                }
            }
            if hook != nil {
                output.flush()  // the hook's own output comes after the line it is about
                hook!.run(for: notification, json: ReplayLines.jsonText(notification))
            }
        case .suppress(let suppression):
            counts.suppressions[suppression.cause.reason, default: 0] += 1
            if printing.explain, let lastPosition {
                map?.point(at: lastPosition, properties: ReplayLines.jsonText(suppression), colour: "#ff7f0e")
            }
            if printing.explain { ReplayLines.append(suppression, json: printing.json, to: &output) }
        }
    }

    /// The summary for stderr, after `label` (the command's name).
    func summary(_ label: String) -> String {
        let s = detector.statistics
        var text = "\(label): \(s.accepted) fixes evaluated, \(counts.transitions) transitions, "
            + "\(counts.notifications.values.reduce(0, +)) reminders" + ReplayCounts.list(counts.notifications)
        text += ", \(counts.suppressions.values.reduce(0, +)) suppressed" + ReplayCounts.list(counts.suppressions)
        text += "; ignored fixes: \(s.inaccurate) inaccurate, \(s.invalid) invalid, "
            + "\(counts.untimed + s.untimed) without time, \(counts.late + s.outOfOrder) late"
        return text
    }
}

/// What a replay counted, for its summary.
struct ReplayCounts {
    var transitions = 0
    var untimed = 0
    var late = 0
    var notifications: [String: Int] = [:]
    var suppressions: [String: Int] = [:]

    /// ` (due 2, location 5)`, or nothing when empty.
    static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
}
