import GeoCore
import Geofencing

/// What the per-device stages (``DeviceStages``) made of some fixes, in
/// order, for the tasks' side of the pipeline to act on: each fix released
/// in time order or turned away, with its transitions and the regions an
/// inaccurate fix would have entered.
///
/// Flat arrays that are emptied and filled again, so that a run allocates
/// nothing per fix, and whose items are plain numbers, so that reading one
/// copies no fix. ``itemEnds`` groups the outputs by the input that made
/// them when a worker thread fills them (see ``ShardedStages``).
public struct DeviceOutputs: Sendable {
    /// What happened to a fix.
    public enum Outcome: UInt8, Sendable {
        /// A fix without time: it has no place on the clock (its fix is
        /// the next of ``untimedFixes``).
        case untimed
        /// A fix older than its device's reorder window: dropped (its fix
        /// is the next of ``fixes``).
        case late
        /// A fix released in time order: its time is the next of
        /// ``times``, and its fix the next of ``fixes`` when ``Item/fixKept``.
        case released
    }

    /// One fix's outcome.
    public struct Item: Sendable {
        /// What happened.
        public var outcome: Outcome
        /// A released fix's transitions: the next this many of ``transitions``.
        public var transitions: Int32 = 0
        /// When the accuracy gate turned a released fix away: the regions
        /// it would have entered are the next this many of
        /// ``inaccurateKeys``; -1 for a fix that was not turned away.
        public var inaccurateKeys: Int32 = -1
        /// Whether a released fix is kept in ``fixes`` (see
        /// ``DeviceOutputs/appendReleased(_:transitions:inaccurateKeys:keepingFix:)``).
        public var fixKept = true
    }

    /// A transition and whether the device's monitor limit kept its region
    /// from being watched.
    public struct Found: Sendable {
        /// The transition.
        public var transition: Transition
        /// The region was outside the device's monitored set.
        public var unmonitored: Bool
    }

    /// Where the tasks' side has read to in some outputs.
    public struct Cursor: Sendable {
        /// The next item.
        public var item = 0
        /// The fix of the next late item, or released item whose fix is kept.
        public var fix = 0
        /// The time of the next released item.
        public var time = 0
        /// The fix of the next untimed item.
        public var untimed = 0
        /// The first transition of the next item.
        public var transition = 0
        /// The first inaccurate region of the next item.
        public var key = 0
        /// Whether the tasks' side stopped within the burst of due
        /// reminders at the fix before ``fix``, its transitions still to
        /// come (see ``ReminderPipeline``'s `apply`).
        var withinBurst = false

        /// The start of the outputs.
        public init() {}
    }

    /// The outcomes, in order.
    public internal(set) var items: [Item] = []
    /// The fixes of the late items and of the released items that keep
    /// theirs, in order.
    public internal(set) var fixes: [TimedFix] = []
    /// The times of the released items, in order.
    public internal(set) var times: [Timestamp] = []
    /// The fixes of the untimed items, in order.
    public internal(set) var untimedFixes: [Fix] = []
    /// The transitions of the released fixes, fix after fix.
    public internal(set) var transitions: [Found] = []
    /// The regions of inaccurate fixes, fix after fix.
    public internal(set) var inaccurateKeys: [Int] = []
    /// After each input a worker took: the number of ``items`` so far.
    public internal(set) var itemEnds: [Int] = []

    /// Empty outputs.
    public init() {}

    /// Empty outputs with room for about `inputs` inputs' outcomes.
    init(capacity inputs: Int) {
        reserve(inputs: inputs)
    }

    /// Makes room for about `inputs` more inputs' outcomes.
    mutating func reserve(inputs: Int) {
        items.reserveCapacity(items.count + inputs)
        times.reserveCapacity(times.count + inputs)
        itemEnds.reserveCapacity(itemEnds.count + inputs)
    }

    /// Forgets everything, keeping the storage (an empty array is left as
    /// it is: emptying one costs a uniqueness check even then, and the
    /// end of a run with 100 000 devices empties these once per device).
    public mutating func removeAll() {
        if !items.isEmpty { items.removeAll(keepingCapacity: true) }
        if !fixes.isEmpty { fixes.removeAll(keepingCapacity: true) }
        if !times.isEmpty { times.removeAll(keepingCapacity: true) }
        if !untimedFixes.isEmpty { untimedFixes.removeAll(keepingCapacity: true) }
        if !transitions.isEmpty { transitions.removeAll(keepingCapacity: true) }
        if !inaccurateKeys.isEmpty { inaccurateKeys.removeAll(keepingCapacity: true) }
        if !itemEnds.isEmpty { itemEnds.removeAll(keepingCapacity: true) }
    }

    /// Appends a fix without time.
    mutating func appendUntimed(_ fix: Fix) {
        items.append(Item(outcome: .untimed))
        untimedFixes.append(fix)
    }

    /// Appends a fix the reorder buffer dropped.
    mutating func appendLate(_ fix: TimedFix) {
        items.append(Item(outcome: .late))
        fixes.append(fix)
    }

    /// Appends a released fix whose transitions were appended before it,
    /// `transitions` of them, and, when the accuracy gate turned it away,
    /// the number of regions it would have entered (appended before it).
    /// Its time is kept, and the fix itself when `keepingFix` (a reader
    /// of the fixes: a sink that draws tracks, a paced run, a shard's
    /// lines) or when the gate turned it away. Most runs read only the
    /// time: a fix is some 140 bytes that the tasks' side would read on
    /// another core (the 1M-fix replay at `--jobs 2`: 2 % less time).
    mutating func appendReleased(_ fix: TimedFix, transitions: Int, inaccurateKeys: Int?, keepingFix: Bool) {
        let kept = keepingFix || inaccurateKeys != nil
        items.append(
            Item(
                outcome: .released, transitions: Int32(transitions), inaccurateKeys: Int32(inaccurateKeys ?? -1),
                fixKept: kept))
        times.append(fix.time)
        if kept { fixes.append(fix) }
    }

    /// Marks the end of one input's outcomes.
    mutating func endInput() { itemEnds.append(items.count) }
}

/// A chunk of one worker's devices finished at the end of a run
/// (``DeviceStages/finishAll(chunk:each:)``): the devices in name order and
/// their outputs, one input each.
struct FinishedDevices: Sendable {
    var devices: [DeviceID]
    var outputs: DeviceOutputs
    /// Whether the worker has no more devices after these.
    var isLast: Bool
}
