import GeoCore
import Geofencing

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
    private let regions: RegionTable
    private let near: NearestPlaces?
    /// Each device's latest position, for ``near``.
    private var positions: [String: Coordinate] = [:]
    /// Threads that may write the lines of a large batch of events.
    private let threads: Int
    /// Most reminders' JSON lines, made in one pass.
    private let reminderText = ReminderLineText()

    /// Lines on `output`; the table's header is written at once. A
    /// transition names the tasks of its region from `regionTasks` (by
    /// region key; see ``ReminderPipeline/regionTasks``), and its table
    /// row says whether its distance is from a circle's centre or an
    /// area's edge by the region's shape in `regions` (the pipeline's
    /// ``ReminderPipeline/regions``; a key past its end is a circle's).
    /// With `near`, a reminder or suppression names the place nearest its
    /// device's latest fix (a due reminder too: where the person was when
    /// it fell due).
    /// Up to `threads` threads write the JSON lines of a large batch
    /// (``receive(contentsOf:)``).
    public init(
        output: ByteWriter, printing: Printing, regionTasks: RegionTasks = RegionTasks(),
        regions: RegionTable = RegionTable(), near: NearestPlaces? = nil, threads: Int = 1
    ) {
        self.output = output
        self.printing = printing
        self.regionTasks = regionTasks
        self.regions = regions
        self.near = near
        self.threads = threads
        if !printing.json { output.write(ReminderLines.header) }
    }

    /// The nearest named place to `device`'s latest fix, if ``near`` is on and one is in reach.
    private func nearest(to device: String?) -> ReminderLines.Near? {
        guard let near, let position = positions[device ?? ""], let found = near.nearest(to: position) else { return nil }
        return ReminderLines.Near(name: found.place.name, metres: found.distance)
    }

    /// Whether the region under `key` is an area (a polygon), not a circle.
    private func isArea(_ key: Int) -> Bool {
        guard !printing.json, key < regions.count, case .area = regions.shape(at: key) else { return false }
        return true
    }

    /// Only with ``near``, for each device's latest position.
    public var receivesFixes: Bool { near != nil }

    public func receive(_ event: ReminderPipeline.Event) {
        if near != nil, case .fix(let fix) = event { positions[fix.device ?? ""] = fix.coordinate }
        switch event {
        case .transition(let transition) where printing.transitions:
            ReminderLines.append(
                transition, tasks: Array(regionTasks[transition.regionKey]), inArea: isArea(transition.regionKey),
                json: printing.json, to: output)
        case .reminder(.notify(let notification)) where printing.reminders:
            if printing.json, near == nil, reminderText.append(notification, to: output) { break }
            ReminderLines.append(notification, json: printing.json, near: nearest(to: notification.device), to: output)
        case .reminder(.suppress(let suppression)) where printing.explain:
            ReminderLines.append(suppression, json: printing.json, near: nearest(to: suppression.device), to: output)
        default:
            return
        }
        output.flushIfFull()
    }

    /// Events per piece of a batch whose lines are written on several
    /// threads.
    private static let eventsPerPiece = 4096

    /// Two pieces' worth when the lines of a batch can be written on
    /// several threads (JSON, ``threads`` above one, no ``near``, whose
    /// positions move with the fixes); never otherwise.
    public var batchMinimum: Int { threads > 1 && near == nil && printing.json ? Self.parallelBatchMinimum : .max }

    /// ``batchMinimum`` when the lines can be written on several threads.
    static let parallelBatchMinimum = eventsPerPiece * 2

    /// ``receive(_:)`` for each event, in order. A batch of at least
    /// ``batchMinimum`` events (the dues of 100 000 tasks when the feed's
    /// clock starts) is written in pieces on up to ``threads`` threads,
    /// each into text of its own, then joined in order.
    public func receive(contentsOf events: [ReminderPipeline.Event]) {
        guard events.count >= batchMinimum else {
            for event in events { receive(event) }
            return
        }
        let (printing, regionTasks) = (printing, regionTasks)
        let pieces = (events.count + Self.eventsPerPiece - 1) / Self.eventsPerPiece
        let texts = parallelMap(count: pieces, jobs: threads) { piece in
            let text = ByteWriter(keeping: Self.eventsPerPiece * 160)
            let sink = ReminderLinesSink(output: text, printing: printing, regionTasks: regionTasks)
            let end = min(events.count, (piece + 1) * Self.eventsPerPiece)
            for event in events[(piece * Self.eventsPerPiece)..<end] { sink.receive(event) }
            return text.bytes
        }
        for text in texts {
            output.bytes.append(contentsOf: text)
            output.flushIfFull()
        }
    }

    public func flush() { output.flush() }
    public func finish() { output.flush() }
}
