import FeedParsing

/// `decode`'s output: every decoded fix (or, with `--waypoints`, every GPX
/// waypoint) as a JSON line or a table row.
public final class FixLinesSink: RunSink {
    private let output: ByteWriter
    private let json: Bool
    private let waypoints: Bool

    /// Lines on `output`; the table's header is written at once.
    public init(output: ByteWriter, json: Bool, waypoints: Bool) {
        self.output = output
        self.json = json
        self.waypoints = waypoints
        if !json { output.write(waypoints ? FixTable.waypointHeader : FixTable.header) }
    }

    public func decoded(_ batch: FeedBatch, feed: String) {
        if waypoints {
            for waypoint in batch.waypoints {
                if json { FixJSONEncoder.append(waypoint, to: &output.bytes) } else { output.write(FixTable.row(waypoint)) }
            }
            return
        }
        for fix in batch.fixes {
            if json {
                FixJSONEncoder.append(fix, to: &output.bytes)
                output.flushIfFull()
            } else {
                output.write(FixTable.row(fix))
            }
        }
    }

    public func flush() { output.flush() }
    public func finish() { output.flush() }
}
