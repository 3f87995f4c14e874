import FeedParsing
import GeoCore

/// `decode`'s output: every decoded fix (or, with `--waypoints`, every GPX
/// waypoint) as a JSON line or a table row.
public final class FixLinesSink: RunSink {
    private let output: ByteWriter
    private let json: Bool
    private let waypoints: Bool
    private let near: NearestPlaces?

    /// Lines on `output`; the table's header is written at once. With
    /// `near`, each fix names the nearest place within its reach.
    public init(output: ByteWriter, json: Bool, waypoints: Bool, near: NearestPlaces? = nil) {
        self.output = output
        self.json = json
        self.waypoints = waypoints
        self.near = near
        if !json {
            let header = waypoints ? FixTable.waypointHeader : FixTable.header
            output.write(near == nil || waypoints ? header : header.dropLast() + "  near\n")
        }
    }

    public func decoded(_ batch: FeedBatch, feed: String) {
        if waypoints {
            for waypoint in batch.waypoints {
                if json {
                    FixJSONEncoder.append(waypoint, to: &output.bytes)
                } else {
                    FixTable.append(waypoint, to: &output.bytes)
                }
                output.flushIfFull()
            }
            return
        }
        for fix in batch.fixes {
            let place = near?.nearest(to: fix.coordinate)
            if json {
                if let place {
                    FixJSONEncoder.append(fix, near: place.place.name, metres: place.distance, to: &output.bytes)
                } else {
                    FixJSONEncoder.append(fix, to: &output.bytes)
                }
            } else {
                FixTable.append(fix, to: &output.bytes)
                if let place {
                    // The row's newline gives way to the place.
                    output.bytes.removeLast()
                    output.bytes.append(contentsOf: "  ".utf8)
                    output.bytes.appendTerminalSafe(place.place.name)
                    output.bytes.append(contentsOf: " (\(Int(place.distance.rounded())) m)\n".utf8)
                }
            }
            output.flushIfFull()
        }
    }

    public func flush() { output.flush() }
    public func finish() { output.flush() }
}
