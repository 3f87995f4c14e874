import CMemoryHints
import Foundation
import GeoCore
import Geofencing
import Recurrence

/// The stages between a decoded feed and its reminders, as one state
/// machine on the feed's clock: reorder buffer → fix filter and geofence
/// detector → platform monitor limit → recurrence gate and scheduler.
///
/// ``push(_:into:)`` takes one decoded fix and appends what follows from it
/// as ``Event``s, in order: the fix once released in time order, then the
/// due reminders the clock passed on its way to the fix, then the fix's
/// transitions, each followed by the gate's decisions about it. There is no
/// clock and no I/O; `replay` and `live` print, pace and log the events.
///
/// Two sides: the stages whose state is per device (``DeviceStages``:
/// reorder buffer, detector, monitor limit) and the tasks' side shared by
/// every device (gate, cooldowns, due scheduler), which acts on their
/// ``DeviceOutputs`` in order (``apply(_:through:from:into:)``). A run on
/// one thread does both here; `--jobs` runs per-device stages on worker
/// threads (``ShardedStages``) and `--shard` in other processes
/// (``ShardWriter``, ``ShardMerge``), with this one tasks' side.
///
/// A device silent for the idle time of feed time is set aside in its least
/// memory and put back at its next fix (``IdleDevices``), which changes
/// nothing the pipeline hands on.
public struct ReminderPipeline: Sendable {
    /// What the pipeline hands on.
    public enum Event: Sendable {
        /// A fix released in time order, before its consequences (the
        /// detector may still ignore it: see ``Statistics/detector``).
        case fix(TimedFix)
        /// A fix without time: it has no place on the clock and is skipped.
        case untimed(Fix)
        /// A fix older than its device's reorder window: dropped.
        case late(TimedFix)
        /// A raw geofence transition.
        case transition(Transition)
        /// A reminder, or an event that stayed quiet and why.
        case reminder(SchedulerOutput)
    }

    /// What a run counted, for its summary.
    public struct Statistics: Equatable, Sendable {
        /// The detector's counts of accepted and ignored fixes.
        public var detector = DetectorStatistics()
        /// The devices whose fixes were evaluated.
        public var devices = 0
        /// Fixes without time.
        public var untimed = 0
        /// Fixes dropped by the reorder buffer.
        public var late = 0
        /// Transitions of every kind.
        public var transitions = 0
        /// Reminders by kind.
        public var notifications: [TaskNotification.Kind: Int] = [:]
        /// Suppressions by reason.
        public var suppressions: [SuppressionKind: Int] = [:]
        /// For each reason that stands for a missed reminder (a platform
        /// limit or the accuracy gate): the tasks it concerned.
        public var missedTasks: [SuppressionKind: Set<String>] = [:]
        /// How often devices chose their monitored regions.
        public var monitorRefreshes = 0
    }

    /// The stages whose state is per device.
    private var devices: DeviceStages
    /// `nil` for a detection-only pipeline (`evaluate` without tasks).
    private var reminders: ReminderStage?
    /// The regions watched (bulk regions and task places), by key.
    public let regions: RegionTable
    private var outputs = DeviceOutputs()
    private var counts = Statistics()
    /// Reminders by kind, kept out of ``counts`` until asked for: two
    /// additions instead of a dictionary's hashing for each reminder.
    private var dueReminders = 0
    private var locationReminders = 0
    /// Whether each released fix becomes a ``Event/fix(_:)`` event, for
    /// sinks that draw tracks or a driver that paces the run; without
    /// them, off saves an event per fix, and the per-device stages then
    /// hand on only each released fix's time.
    public var emitsFixes = true {
        didSet { devices.keepsReleasedFixes = emitsFixes }
    }

    /// A pipeline over the reminder stage's regions and tasks.
    /// - Parameters:
    ///   - reorderSeconds: the reorder window (`--reorder-window`).
    ///   - monitorLimit: at most this many regions monitored per device
    ///     (`--monitor-limit`); `nil` monitors all.
    ///   - padding: metres added to every circle's radius for detection
    ///     only (`evaluate`'s `pad`; the default hysteresis follows the
    ///     padded radius); areas are used as they are.
    ///   - deviceIdleSeconds: the feed time after a device's newest fix
    ///     when it is set aside (`--device-idle`, default 1 h).
    public init(
        reminders: ReminderStage, geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0, deviceIdleSeconds: Double = 3600
    ) {
        devices = DeviceStages(
            regions: reminders.regions,
            reminding: RemindingRegions(everywhere: reminders.remindsEverywhere, tasks: reminders.regionTasks),
            geofence: geofence, reorderSeconds: reorderSeconds, monitorLimit: monitorLimit, padding: padding,
            deviceIdleSeconds: deviceIdleSeconds)
        self.reminders = reminders
        regions = reminders.regions
    }

    /// A pipeline that only detects: transitions of `regions`, no
    /// recurrence gate and no reminders (every region counts for the
    /// monitor limit), and no ``Event/fix(_:)`` events — only transitions
    /// and what the reorder buffer drops. Parameters as for the full
    /// pipeline.
    public init(
        detecting regions: RegionTable, geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int? = nil,
        padding: Double = 0, deviceIdleSeconds: Double = 3600
    ) {
        devices = DeviceStages(
            regions: regions, reminding: RemindingRegions(everywhere: true, tasks: RegionTasks()), geofence: geofence,
            reorderSeconds: reorderSeconds, monitorLimit: monitorLimit, padding: padding,
            deviceIdleSeconds: deviceIdleSeconds)
        self.regions = regions
    }

    /// The tasks each region concerns, by key (none for regions without a
    /// task, and for a detection-only pipeline).
    public var regionTasks: RegionTasks { reminders?.regionTasks ?? RegionTasks() }

    /// What was counted so far.
    public var statistics: Statistics { statistics(adding: [devices]) }

    /// What was counted so far by the tasks' side and by `shards`, the
    /// per-device stages that took the devices.
    func statistics(adding shards: [DeviceStages]) -> Statistics {
        var statistics = counts
        if dueReminders > 0 { statistics.notifications[.due, default: 0] += dueReminders }
        if locationReminders > 0 { statistics.notifications[.location, default: 0] += locationReminders }
        for shard in shards {
            statistics.detector.add(shard.detectorStatistics)
            statistics.devices += shard.deviceCount
            statistics.monitorRefreshes += shard.monitorRefreshes
        }
        return statistics
    }

    /// The number of devices set aside now for having been idle.
    public var idleDeviceCount: Int { devices.idleDeviceCount }

    /// The number of fixes evaluated so far (cheaper than ``statistics``).
    public var fixesEvaluated: Int { devices.fixesEvaluated }

    /// Per-device stages like this pipeline's, holding no device: for a
    /// worker thread or a shard that takes some of the devices.
    public func emptyDeviceStages() -> DeviceStages { devices.emptied() }

    /// A pipeline over the same regions, index, padding and tasks as this
    /// one, which has taken no fix yet, with other per-device settings (see
    /// ``init(reminders:geofence:reorderSeconds:monitorLimit:padding:deviceIdleSeconds:)``):
    /// one per setting of a sweep, the regions' index built once.
    public func emptied(
        geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int?, deviceIdleSeconds: Double
    ) -> ReminderPipeline {
        precondition(statistics == Statistics(), "a pipeline that has taken no fix")
        var pipeline = self
        pipeline.devices = devices.emptied(
            geofence: geofence, reorderSeconds: reorderSeconds, monitorLimit: monitorLimit,
            deviceIdleSeconds: deviceIdleSeconds)
        pipeline.devices.keepsReleasedFixes = emitsFixes
        return pipeline
    }

    /// Takes new values of the tasks (see ``ReminderStage/update(tasks:)``).
    public mutating func update(tasks: [RecurringTask]) { reminders?.update(tasks: tasks) }

    /// Takes one decoded fix and appends its consequences to `events`;
    /// within a burst of due reminders (the clock's start) `handOn`, when
    /// given, takes `events` every few thousand, as in
    /// ``push(contentsOf:into:handingOn:)``.
    public mutating func push(
        _ fix: Fix, into events: inout [Event], handingOn handOn: (inout [Event]) -> Void = { _ in }
    ) {
        outputs.removeAll()
        devices.push(fix, into: &outputs)
        applyOutputs(into: &events, handingOn: handOn)
    }

    /// Takes decoded fixes in order and appends their consequences: the
    /// same events as pushing them one by one, with less work per fix.
    public mutating func push(contentsOf fixes: ArraySlice<Fix>, into events: inout [Event]) {
        push(contentsOf: fixes, into: &events, handingOn: { _ in })
    }

    /// ``push(contentsOf:into:)``, calling `handOn` with `events` whenever
    /// a burst of reminders (the clock's start) has filled it with a few
    /// thousand: `handOn` takes them (and empties `events`, or it keeps
    /// growing), so that the burst is never held whole.
    public mutating func push(
        contentsOf fixes: ArraySlice<Fix>, into events: inout [Event], handingOn handOn: (inout [Event]) -> Void
    ) {
        outputs.removeAll()
        for fix in fixes { devices.push(fix, into: &outputs) }
        applyOutputs(into: &events, handingOn: handOn)
    }

    /// Moves `device`'s clock on to `time` without a fix (a receiver epoch
    /// that had none): the fixes the reorder buffer held for longer than
    /// its window before `time` are released and evaluated.
    public mutating func advance(device: String?, to time: Timestamp, into events: inout [Event]) {
        outputs.removeAll()
        devices.advance(device: device, to: time, into: &outputs)
        applyOutputs(into: &events)
    }

    /// Releases and evaluates everything the reorder buffer holds, without
    /// waiting for its window: a live source went quiet. Evaluation goes
    /// on; devices set aside are released too, and set aside again.
    public mutating func releaseHeld(into events: inout [Event]) {
        outputs.removeAll()
        devices.releaseHeld(into: &outputs)
        applyOutputs(into: &events)
    }

    /// Releases and evaluates what the reorder buffer still holds, device
    /// by device in name order, those set aside included.
    public mutating func finish(into events: inout [Event]) {
        finish { events += $0 }
    }

    /// ``finish(into:)`` a device at a time: `body` gets each device's
    /// events in turn, so that a run with many devices never holds the
    /// events of all of them at once.
    public mutating func finish(each body: ([Event]) -> Void) {
        var events: [Event] = []
        for id in devices.deviceIDs.byName() {
            outputs.removeAll()
            devices.finish(device: id, into: &outputs)
            events.removeAll(keepingCapacity: true)
            applyOutputs(into: &events)
            body(events)
        }
    }

    /// Moves the tasks' clock to `time`; returns whether a due reminder
    /// fell (or was suppressed) on the way. A `--shard`'s own clock (see
    /// ``ShardWriter``).
    mutating func clockPassesDue(at time: Timestamp) -> Bool {
        guard reminders != nil else { return false }
        return !reminders!.advance(to: time).isEmpty
    }

    /// Acts on all of ``outputs``, handing `events` to `handOn` within a
    /// burst of due reminders.
    private mutating func applyOutputs(into events: inout [Event], handingOn handOn: (inout [Event]) -> Void = { _ in }) {
        var cursor = DeviceOutputs.Cursor()
        var outputs = DeviceOutputs()
        swap(&outputs, &self.outputs)
        apply(&outputs, through: outputs.items.count, from: &cursor, into: &events, handingOn: handOn)
        swap(&outputs, &self.outputs)
    }

    /// ``apply(_:through:from:into:)`` up to `end` whatever bursts come:
    /// at each stop within one, `handOn` takes `events` (and empties it,
    /// or it keeps growing) before ``resume(_:through:from:into:)`` goes
    /// on. For callers not on the per-fix path; `TasksSide.take` tests the
    /// flag itself.
    mutating func apply(
        _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        into events: inout [Event], handingOn handOn: (inout [Event]) -> Void
    ) {
        var stopped = apply(&outputs, through: end, from: &cursor, into: &events)
        while stopped {
            handOn(&events)
            stopped = resume(&outputs, through: end, from: &cursor, into: &events)
        }
    }

    /// The tasks' side of the pipeline: acts on the items of `outputs`
    /// from `cursor` up to item `end` (moving `cursor` on), in order, and
    /// appends the events: a released fix, then the due reminders the clock
    /// passed on its way to it, then its transitions, each followed by the
    /// gate's decisions about it, then what an inaccurate fix would have
    /// entered.
    ///
    /// Returns `true` when it stopped within a burst of due reminders (the
    /// clock's start), after ``remindersAtOnce`` of them: the caller hands
    /// `events` on, then goes on with ``resume(_:through:from:into:)``. So
    /// the burst is never held whole: made at once, the outputs, events
    /// and lines of 100 000 tasks' 63 000 dues were 25 MB of fresh memory,
    /// faulted in on the main thread while the stages' threads waited.
    ///
    /// `outputs` is not changed: it is `inout` so that a caller lends it
    /// in place. Passed by value, its six arrays were retained and released
    /// at every call, and with 100 000 devices taking turns `--jobs` calls
    /// this once per fix (230M instructions of atomic counting on the main
    /// thread).
    mutating func apply(
        _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        into events: inout [Event]
    ) -> Bool {
        assert(!cursor.withinBurst, "a burst is resumed, not applied again")
        while cursor.item < end {
            let item = outputs.items[cursor.item]
            cursor.item += 1
            switch item.outcome {
            case .untimed:
                counts.untimed += 1
                events.append(.untimed(outputs.untimedFixes[cursor.untimed]))
                cursor.untimed += 1
            case .late:
                counts.late += 1
                events.append(.late(outputs.fixes[cursor.fix]))
                cursor.fix += 1
            case .released:
                let time = cursor.time
                cursor.time += 1
                let index = item.fixKept ? cursor.fix : -1
                if item.fixKept { cursor.fix += 1 }
                prefetchTime(of: outputs.times, at: time + Self.timesAhead)
                if reminders != nil {
                    if emitsFixes {
                        assert(item.fixKept, "a pipeline that emits fixes has its stages keep them")
                        events.append(.fix(outputs.fixes[index]))
                    }
                    let dues = reminders!.advance(to: outputs.times[time], atMost: Self.remindersAtOnce)
                    let full = dues.count == Self.remindersAtOnce
                    record(dues, into: &events)
                    if full, reminders!.holdsOutputs {
                        cursor.withinBurst = true
                        return true
                    }
                }
                actOnTransitions(of: item, fix: index, in: &outputs, from: &cursor, into: &events)
            }
        }
        return false
    }

    /// ``apply(_:through:from:into:)`` going on from within the burst it
    /// stopped in: the burst's next ``remindersAtOnce`` reminders, or once
    /// they are all recorded, the rest of the fix's item and the items up
    /// to `end`. Returns `true` when it stopped within the burst again.
    mutating func resume(
        _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        into events: inout [Event]
    ) -> Bool {
        precondition(cursor.withinBurst, "only a burst stopped within is resumed")
        record(reminders!.takeHeld(atMost: Self.remindersAtOnce), into: &events)
        if reminders!.holdsOutputs { return true }
        cursor.withinBurst = false
        let item = outputs.items[cursor.item - 1]
        actOnTransitions(of: item, fix: item.fixKept ? cursor.fix - 1 : -1, in: &outputs, from: &cursor, into: &events)
        return apply(&outputs, through: end, from: &cursor, into: &events)
    }

    /// The due reminders that ``apply(_:through:from:into:)`` takes from
    /// the clock at a time: enough for the JSON lines sink to write them
    /// on two threads (``ReminderLinesSink/batchMinimum``).
    static let remindersAtOnce = ReminderLinesSink.parallelBatchMinimum

    /// The rest of a released fix's `item`, after the clock reached the
    /// fix (at `fix` in the fixes when kept, as an inaccurate one is): its
    /// transitions, each followed by the gate's decisions about it, then
    /// what the fix, if inaccurate, would have entered.
    @inline(__always)
    private mutating func actOnTransitions(
        of item: DeviceOutputs.Item, fix: Int, in outputs: inout DeviceOutputs, from cursor: inout DeviceOutputs.Cursor,
        into events: inout [Event]
    ) {
        let transitions = Int(item.transitions)
        for found in outputs.transitions[cursor.transition..<cursor.transition + transitions] {
            counts.transitions += 1
            events.append(.transition(found.transition))
            guard reminders != nil else { continue }
            record(reminders!.handle(found.transition, blockedBy: found.unmonitored ? .monitorLimit : nil), into: &events)
        }
        cursor.transition += transitions
        guard item.inaccurateKeys >= 0 else { return }
        let count = Int(item.inaccurateKeys)
        let keys = Array(outputs.inaccurateKeys[cursor.key..<cursor.key + count])
        cursor.key += count
        guard reminders != nil else { return }
        record(reminders!.handleInaccurate(outputs.fixes[fix], regionKeys: keys), into: &events)
    }

    /// How many released fixes ahead ``apply(_:through:from:into:)``
    /// prefetches the time of.
    private static let timesAhead = 8

    /// Asks for the cache line of `times[index]`, if there is such a time.
    /// A worker wrote the times on the other core, and the clock's read of
    /// each one waited for it there: with 100 000 devices taking turns,
    /// `apply` is called once per fix, between the two workers' outputs,
    /// and the processor's own prefetching does not follow (`--jobs 2`:
    /// `apply`'s samples 345 → 172, 58 % of them on that load before,
    /// when each time was read from its whole fix).
    @inline(__always)
    private func prefetchTime(of times: [Timestamp], at index: Int) {
        times.withUnsafeBufferPointer { times in
            if index < times.count { repeat_prefetch(times.baseAddress! + index) }
        }
    }

    /// Records each of `decisions` in order, moved into `events`: with
    /// `for decision in decisions`, each was copied out of the array, its
    /// strings retained, then released with the array. Inlined: it is
    /// called for every fix and transition, mostly with none.
    @inline(__always)
    private mutating func record(_ decisions: consuming [SchedulerOutput], into events: inout [Event]) {
        guard decisions.count > 1 else {
            if let decision = decisions.popLast() { record(decision, into: &events) }
            return
        }
        recordSeveral(consume decisions, into: &events)
    }

    /// ``record(_:into:)`` of two decisions or more: moved out of their
    /// array in order, each slot left holding a stand-in that owns no
    /// storage, rather than through a second array in reverse (with the
    /// start's 63 000 decisions, 7.5 MB of fresh pages on the main thread
    /// while the others waited).
    private mutating func recordSeveral(_ decisions: consuming [SchedulerOutput], into events: inout [Event]) {
        // The start's burst (a decision for every task due) in one
        // allocation, not a doubling at every power of two.
        if decisions.count > 1024 { events.reserveCapacity(events.count + decisions.count) }
        let standIn = SchedulerOutput.suppress(Suppression(time: .distantPast, taskID: "", cause: .pendingLimit))
        decisions.withUnsafeMutableBufferPointer { slots in
            guard let first = slots.baseAddress else { return }
            for slot in first..<first + slots.count {
                record(slot.move(), into: &events)
                slot.initialize(to: standIn)
            }
        }
    }

    private mutating func record(_ decision: consuming SchedulerOutput, into events: inout [Event]) {
        switch decision {
        case .notify(let notification):
            switch notification.kind {
            case .due: dueReminders += 1
            case .location: locationReminders += 1
            }
        case .suppress(let suppression):
            counts.suppressions[suppression.cause.kind, default: 0] += 1
            if suppression.cause.isMissedReminder {
                counts.missedTasks[suppression.cause.kind, default: []].insert(suppression.taskID)
            }
        }
        events.append(.reminder(decision))
    }
}

/// A device and a region key.
struct DeviceRegion: Hashable, Sendable {
    var device: String?
    var region: Int
}
