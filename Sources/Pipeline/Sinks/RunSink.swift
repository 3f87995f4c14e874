import FeedParsing

/// Where a run's output goes: stdout lines, a GeoJSON file, a shell hook,
/// the store's log, or a collector.
///
/// The ``FeedRun`` driver calls a decode run's sinks once per batch with
/// the decoded items, and a pipeline run's sinks once per event, in order,
/// sink after sink (so the log records a reminder before it is printed);
/// a run's only sink may take a large batch of events at once
/// (``receive(contentsOf:)``).
/// Every method has a default that does nothing, but for
/// ``receive(contentsOf:)``'s, which hands each event to ``receive(_:)``.
public protocol RunSink: AnyObject {
    /// The items decoded from one read of `feed` (decode runs).
    func decoded(_ batch: FeedBatch, feed: String)
    /// One event of the stages (replay and live runs).
    func receive(_ event: ReminderPipeline.Event)
    /// Events of the stages in order, as ``receive(_:)`` takes them one
    /// by one (the default): a run with this sink alone and no pace hands
    /// on a batch of at least ``batchMinimum`` events so.
    func receive(contentsOf events: [ReminderPipeline.Event])
    /// The fewest events that the sink takes better at once than one by
    /// one (default: `Int.max`, never).
    var batchMinimum: Int { get }
    /// Whether the sink looks at ``ReminderPipeline/Event/fix(_:)``
    /// events; when no sink does, the run makes none, which saves time on
    /// every fix (default: `true`).
    var receivesFixes: Bool { get }
    /// The end of a batch or a pause: write out what is buffered.
    func flush()
    /// The end of the run.
    func finish()
}

extension RunSink {
    public func decoded(_ batch: FeedBatch, feed: String) {}
    public func receive(_ event: ReminderPipeline.Event) {}
    public func receive(contentsOf events: [ReminderPipeline.Event]) { for event in events { receive(event) } }
    public var batchMinimum: Int { .max }
    public var receivesFixes: Bool { true }
    public func flush() {}
    public func finish() {}
}
