import GeoCore

/// What acts on the per-device stages' outcomes in the feed's order, as
/// ``ShardedStages`` hands them back from its workers: the tasks' side of
/// a run (``TasksSide``) or the lines of a `--shard` (``ShardWriter``).
protocol OutcomeConsumer {
    /// Acts on the outcomes of consecutive inputs of a read of `feed` that
    /// one worker took: its inputs at `inputs` (counted among the worker's
    /// inputs of the slice), whose items are in `outputs` from `cursor` on
    /// (moved on past them). `firstInput` is the position of the first of
    /// them among all the inputs of `feed`, other shards' included.
    mutating func take(
        _ outputs: inout DeviceOutputs, inputs: Range<Int>, from cursor: inout DeviceOutputs.Cursor, firstInput: Int,
        feed: ShardedStages.Feed)

    /// Called once a slice's outcomes have all been taken.
    mutating func endSlice(feed: ShardedStages.Feed)

    /// Acts on `device`'s last outcomes at the end of the run: the items of
    /// `outputs` from `cursor` (moved on) to item `end`. `feed` is the last
    /// feed the run read.
    mutating func finish(
        device: DeviceID, _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        feed: ShardedStages.Feed)
}

/// The ``ReminderPipeline``'s tasks' side as an ``OutcomeConsumer``: its
/// events go to `dispatch` a few thousand at a time (a burst of reminders
/// too), the rest of a slice's at its end, and a finished device's at once
/// with the feed's name.
struct TasksSide: OutcomeConsumer {
    /// What the tasks' side made of some inputs of `feed`, in order.
    typealias Dispatch = (_ events: [ReminderPipeline.Event], _ feed: String) -> Void

    /// The pipeline whose tasks' side acts on the outcomes.
    var pipeline: ReminderPipeline
    private let dispatch: Dispatch
    private var events: [ReminderPipeline.Event] = []

    /// The tasks' side of `pipeline`, handing its events to `dispatch`.
    init(_ pipeline: consuming ReminderPipeline, dispatch: @escaping Dispatch) {
        self.pipeline = pipeline
        self.dispatch = dispatch
    }

    mutating func take(
        _ outputs: inout DeviceOutputs, inputs: Range<Int>, from cursor: inout DeviceOutputs.Cursor, firstInput: Int,
        feed: ShardedStages.Feed
    ) {
        let end = outputs.itemEnds[inputs.upperBound - 1]
        if pipeline.apply(&outputs, through: end, from: &cursor, into: &events) || events.count >= 4096 {
            handOn(&outputs, through: end, from: &cursor, feed: feed)
        }
    }

    /// Hands ``events`` on, then goes on with the burst of reminders that
    /// the tasks' side stopped within, if it did, a part at a time. Apart
    /// from ``take(_:inputs:from:firstInput:feed:)``, which with 100 000
    /// devices is called once per fix.
    @inline(never)
    private mutating func handOn(
        _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        feed: ShardedStages.Feed
    ) {
        handOn(feed: feed)
        while cursor.withinBurst, pipeline.resume(&outputs, through: end, from: &cursor, into: &events) {
            handOn(feed: feed)
        }
    }

    /// Hands ``events`` to `dispatch` and empties it.
    private mutating func handOn(feed: ShardedStages.Feed) { Self.handOn(&events, to: dispatch, feed: feed.name) }

    /// Hands `events` to `dispatch` and empties it.
    private static func handOn(_ events: inout [ReminderPipeline.Event], to dispatch: Dispatch, feed: String) {
        dispatch(events, feed)
        events.removeAll(keepingCapacity: true)
    }

    mutating func endSlice(feed: ShardedStages.Feed) { handOn(feed: feed) }

    mutating func finish(
        device: DeviceID, _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        feed: ShardedStages.Feed
    ) {
        events.removeAll(keepingCapacity: true)
        let (dispatch, name) = (dispatch, feed.name)
        pipeline.apply(&outputs, through: end, from: &cursor, into: &events) { Self.handOn(&$0, to: dispatch, feed: name) }
        dispatch(events, name)
    }
}
