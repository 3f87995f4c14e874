import GeoCore

/// `replay`'s and `live`'s stdout: reminders, and on request suppressions
/// and raw transitions, as JSON lines or table rows.
public final class ReminderLinesSink: RunSink {
    /// What to print besides the reminders.
    public struct Printing: Sendable {
        /// Print raw transitions (enter, exit, dwell, cross).
        public var transitions: Bool
        /// Print reminders (location, due); off for `--transitions` without tasks.
        public var reminders: Bool
        /// Print suppressed arrivals and dues with their reason.
        public var explain: Bool
        /// JSON lines instead of a table.
        public var json: Bool

        /// The choice of lines.
        public init(transitions: Bool, reminders: Bool, explain: Bool, json: Bool) {
            self.transitions = transitions
            self.reminders = reminders
            self.explain = explain
            self.json = json
        }
    }

    private let output: ByteWriter
    private let printing: Printing
    private let regionTasks: RegionTasks
    private let near: NearestPlaces?
    /// Each device's latest position, for ``near``.
    private var positions: [String: Coordinate] = [:]

    /// Lines on `output`; the table's header is written at once. A
    /// transition names the tasks of its region from `regionTasks` (by
    /// region key; see ``ReminderPipeline/regionTasks``). With `near`, a
    /// reminder or suppression names the place nearest its device's latest
    /// fix (a due reminder too: where the person was when it fell due).
    public init(
        output: ByteWriter, printing: Printing, regionTasks: RegionTasks = RegionTasks(), near: NearestPlaces? = nil
    ) {
        self.output = output
        self.printing = printing
        self.regionTasks = regionTasks
        self.near = near
        if !printing.json { output.write(ReminderLines.header) }
    }

    /// The nearest named place to `device`'s latest fix, if ``near`` is on and one is in reach.
    private func nearest(to device: String?) -> ReminderLines.Near? {
        guard let near, let position = positions[device ?? ""], let found = near.nearest(to: position) else { return nil }
        return ReminderLines.Near(name: found.place.name, metres: found.distance)
    }

    /// Only with ``near``, for each device's latest position.
    public var receivesFixes: Bool { near != nil }

    public func receive(_ event: ReminderPipeline.Event) {
        if near != nil, case .fix(let fix) = event { positions[fix.device ?? ""] = fix.coordinate }
        switch event {
        case .transition(let transition) where printing.transitions:
            ReminderLines.append(transition, tasks: Array(regionTasks[transition.regionKey]), json: printing.json, to: output)
        case .reminder(.notify(let notification)) where printing.reminders:
            ReminderLines.append(notification, json: printing.json, near: nearest(to: notification.device), to: output)
        case .reminder(.suppress(let suppression)) where printing.explain:
            ReminderLines.append(suppression, json: printing.json, near: nearest(to: suppression.device), to: output)
        default:
            return
        }
        output.flushIfFull()
    }

    public func flush() { output.flush() }
    public func finish() { output.flush() }
}
