import Foundation
import GeoCore
import Geofencing
import Recurrence
import Reporting

/// `replay --report FILE.html`: collects what the report draws while the
/// feed streams, and writes the page (``ReplayReport``) at the end.
///
/// Memory stays bounded whatever the feed's length: tracks go through a
/// ``TrackCollector`` (at most about 100 000 points kept), events are kept
/// up to a limit per kind, spread evenly over the run (the counts stay exact), and at most 5 000 regions
/// are drawn (those with transitions and the tasks' places first). The stages see
/// every fix; only the drawing is simplified.
public final class ReportSink: RunSink {
    /// What the report is of, for its heading.
    public struct Inputs: Sendable {
        /// The feed files replayed.
        public var feeds: [String]
        /// The tasks file, if one was given.
        public var tasksFile: String?
        /// The regions file, if one was given.
        public var regionsFile: String?

        /// The inputs of a replay.
        public init(feeds: [String], tasksFile: String?, regionsFile: String?) {
            self.feeds = feeds
            self.tasksFile = tasksFile
            self.regionsFile = regionsFile
        }
    }

    /// At most this many events of one kind are drawn.
    static let eventLimit = 1500
    /// At most this many regions are drawn.
    static let regionLimit = 5000

    let path: String
    private let handle: FileHandle
    let inputs: Inputs
    let regions: RegionTable
    let tasks: [RecurringTask]
    let titles: [String: String]
    var tracks = TrackCollector()
    var events: [ReplayReport.Event] = []
    /// Events by kind: how many happened (each is drawn up to the limit).
    var counts: [ReplayReport.EventKind: Int] = [:]
    /// Events by kind: how many are kept, and every how many one is.
    private var kept: [ReplayReport.EventKind: Int] = [:], strides: [ReplayReport.EventKind: Int] = [:]
    /// Per task: location reminders, due reminders, suppressions, first reminder.
    var perTask: [String: TaskCounts] = [:]
    var devices: Set<String> = []
    /// The keys of the regions with a transition (drawn first when there are
    /// more regions than the limit).
    var regionsWithEvents: Set<Int> = []
    var untimed = 0, late = 0
    var first: Timestamp?, last: Timestamp?
    private var lastPosition: Coordinate?
    private var lastDevice: String?

    /// Counts of one task.
    struct TaskCounts {
        var location = 0, due = 0, suppressed = 0
        var firstReminder: Timestamp?
    }

    /// Creates `path` (so that a bad path fails before the replay) for a
    /// report of `inputs` over `regions` and `tasks`.
    /// - Throws: ``RunError/cannotCreate(_:reason:)``.
    public init(path: String, inputs: Inputs, regions: RegionTable, tasks: [RecurringTask]) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RunError.creating(path) }
        self.path = path
        self.handle = handle
        self.inputs = inputs
        self.regions = regions
        self.tasks = tasks
        titles = Dictionary(tasks.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    public func receive(_ event: ReminderPipeline.Event) {
        switch event {
        case .fix(let fix):
            guard fix.coordinate.isValid else { return }
            let device = fix.device ?? ""
            tracks.add(fix.coordinate, device: device, time: fix.time.secondsSince1970)
            if device != lastDevice, devices.count < 100_000 {
                devices.insert(device)
                lastDevice = device
            }
            lastPosition = fix.coordinate
            if first == nil { first = fix.time }
            last = max(last ?? fix.time, fix.time)
        case .transition(let transition):
            if regions.count > Self.regionLimit { regionsWithEvents.insert(transition.regionKey) }
            record(
                .transition(transition.kind.rawValue), time: transition.time, at: lastPosition, task: nil,
                text: Self.describe(transition))
        case .reminder(.notify(let notification)):
            let time = Timestamp(secondsSince1970: notification.time.timeIntervalSince1970)
            var counts = perTask[notification.taskID, default: TaskCounts()]
            if notification.kind == .location { counts.location += 1 } else { counts.due += 1 }
            counts.firstReminder = counts.firstReminder ?? time
            perTask[notification.taskID] = counts
            record(
                notification.kind == .location ? .locationReminder : .dueReminder, time: time,
                at: notification.kind == .location ? lastPosition : nil, task: notification.taskID,
                text: Self.describe(notification))
        case .reminder(.suppress(let suppression)):
            perTask[suppression.taskID, default: TaskCounts()].suppressed += 1
            record(
                .suppressed(reason: suppression.cause.reason),
                time: Timestamp(secondsSince1970: suppression.time.timeIntervalSince1970),
                at: suppression.region == nil ? nil : lastPosition, task: suppression.taskID,
                text: describe(suppression))
        case .untimed:
            untimed += 1
        case .late:
            late += 1
        }
    }

    /// Counts an event, and keeps every `stride`-th of its kind (with its
    /// text, made only then). When a kind has more than the limit kept, every
    /// other one is let go and its stride doubles: what is drawn is spread
    /// evenly over the run, not its first minutes.
    private func record(
        _ kind: ReplayReport.EventKind, time: Timestamp, at coordinate: Coordinate?, task: String?,
        text: @autoclosure () -> String
    ) {
        let count = counts[kind, default: 0]
        counts[kind] = count + 1
        if first == nil { first = time }
        last = max(last ?? time, time)
        let stride = strides[kind, default: 1]
        guard count % stride == 0 else { return }
        events.append(ReplayReport.Event(kind: kind, time: time, coordinate: coordinate, task: task, text: text()))
        kept[kind, default: 0] += 1
        guard kept[kind]! > Self.eventLimit else { return }
        var index = 0
        events.removeAll { event in
            guard event.kind == kind else { return false }
            defer { index += 1 }
            return index % 2 == 1
        }
        kept[kind] = index - index / 2
        strides[kind] = stride * 2
    }

    /// Writes the page.
    public func finish() {
        handle.write(Data(report.html.utf8))
        try? handle.close()
    }
}
