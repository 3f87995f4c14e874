import GeoCore
import Geofencing

/// What the per-device stages (``DeviceStages``) made of some fixes, in
/// order, for the tasks' side of the pipeline to act on: each fix released
/// in time order or turned away, with its transitions and the regions an
/// inaccurate fix would have entered.
///
/// Flat arrays that are emptied and filled again, so that a run allocates
/// nothing per fix. ``itemEnds`` groups the outputs by the input that made
/// them when a worker thread fills them (see ``ShardedStages``).
public struct DeviceOutputs: Sendable {
    /// One fix's outcome.
    public enum Item: Sendable {
        /// A fix without time: it has no place on the clock.
        case untimed(Fix)
        /// A fix older than its device's reorder window: dropped.
        case late(TimedFix)
        /// A fix released in time order: its transitions are the next
        /// `transitions` of ``transitions``; when the accuracy gate turned
        /// it away, `inaccurateKeys` of ``inaccurateKeys`` are the regions
        /// it would have entered (`nil` for a fix that was not).
        case released(TimedFix, transitions: Int, inaccurateKeys: Int?)
    }

    /// A transition and whether the device's monitor limit kept its region
    /// from being watched.
    public struct Found: Sendable {
        /// The transition.
        public var transition: Transition
        /// The region was outside the device's monitored set.
        public var unmonitored: Bool
    }

    /// The outcomes, in order.
    public internal(set) var items: [Item] = []
    /// The transitions of the released fixes, fix after fix.
    public internal(set) var transitions: [Found] = []
    /// The regions of inaccurate fixes, fix after fix.
    public internal(set) var inaccurateKeys: [Int] = []
    /// After each input a worker took: the number of ``items`` so far.
    public internal(set) var itemEnds: [Int] = []

    /// Where the tasks' side has read to in some outputs.
    public struct Cursor: Sendable {
        /// The next item.
        public var item = 0
        /// The first transition of the next item.
        public var transition = 0
        /// The first inaccurate region of the next item.
        public var key = 0

        /// The start of the outputs.
        public init() {}
    }

    /// Empty outputs.
    public init() {}

    /// Forgets everything, keeping the storage.
    public mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
        inaccurateKeys.removeAll(keepingCapacity: true)
        itemEnds.removeAll(keepingCapacity: true)
    }

    /// Marks the end of one input's outcomes.
    mutating func endInput() { itemEnds.append(items.count) }
}
