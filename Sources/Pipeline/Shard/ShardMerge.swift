import GeoCore
import Geofencing

/// `repeat-sim merge`: the outcomes of every shard of a run, handed to the
/// tasks' side in the order the unsharded run made them.
///
/// Each shard's lines are in its own run's order; an input belongs to one
/// shard and a device to one shard, so taking the smallest place among the
/// shards' next outcomes each time gives the unsharded run's order.
enum ShardMerge {
    /// Hands every shard's outcomes to `pipeline` in order; `dispatch` gets
    /// the events of each with its feed's position (`nil` while finishing).
    /// Returns the run's statistics: `pipeline`'s and the shards' counts.
    static func run(
        _ readers: [ShardReader], into pipeline: inout ReminderPipeline,
        dispatch: ([ReminderPipeline.Event], Int?) -> Void
    ) throws -> ReminderPipeline.Statistics {
        var outputs = DeviceOutputs()
        var events: [ReminderPipeline.Event] = []
        while let reader = next(of: readers) {
            let item = reader.current!
            let place = reader.place!
            outputs.removeAll()
            try append(item, from: reader, regions: pipeline.regions, to: &outputs)
            events.removeAll(keepingCapacity: true)
            var cursor = DeviceOutputs.Cursor()
            let feed = item.input == nil ? nil : item.feed
            pipeline.apply(&outputs, through: outputs.items.count, from: &cursor, into: &events) { events in
                dispatch(events, feed)
                events.removeAll(keepingCapacity: true)
            }
            dispatch(events, feed)
            try reader.advance()
            if let following = reader.place, following < place {
                throw reader.problem("an outcome out of order: the file was edited or joined from several runs")
            }
        }
        var statistics = pipeline.statistics(adding: [])
        var total = 0
        for reader in readers {
            guard let summary = reader.summary else { continue }
            let problem = ShardFileError(
                path: reader.path, line: nil,
                problem: "summary counts that add up past 2^62 with those of the files before it: was it edited?")
            for count in summary.counts { try add(count, to: &total, else: problem) }
            var detector = DetectorStatistics()
            detector.accepted = summary.accepted
            detector.inaccurate = summary.inaccurate
            detector.invalid = summary.invalid
            detector.outOfOrder = summary.outOfOrder
            statistics.detector.add(detector)
            statistics.devices += summary.devices
            statistics.monitorRefreshes += summary.monitorRefreshes
        }
        return statistics
    }

    /// The reader whose next outcome comes first.
    private static func next(of readers: [ShardReader]) -> ShardReader? {
        var first: (reader: ShardReader, place: ShardReader.Place)?
        for reader in readers {
            guard let place = reader.place else { continue }
            if first.map({ place < $0.place }) ?? true { first = (reader, place) }
        }
        return first?.reader
    }

    /// `item` as the per-device stages made it.
    private static func append(
        _ item: ShardItem, from reader: ShardReader, regions: RegionTable, to outputs: inout DeviceOutputs
    ) throws {
        guard item.position.count == 2 else { throw reader.problem("a position is two numbers") }
        let coordinate = Coordinate(latitude: item.position[0], longitude: item.position[1])
        func timed() throws -> TimedFix {
            guard let value = item.time, let time = Timestamp(shardValue: value),
                let fix = TimedFix(Fix(time: time, coordinate: coordinate, device: item.device))
            else { throw reader.problem("a fix without a valid time") }
            return fix
        }
        switch item.outcome {
        case .untimed:
            outputs.appendUntimed(Fix(time: nil, coordinate: coordinate, device: item.device))
        case .late:
            outputs.appendLate(try timed())
        case .released:
            let fix = try timed()
            for found in item.transitions ?? [] {
                guard (0..<regions.count).contains(found.region), let time = Timestamp(shardValue: found.time) else {
                    throw reader.problem(
                        "region \(found.region) is not one of this run's regions: were the shards run with other "
                            + "--regions or --tasks files?")
                }
                let transition = Transition(
                    kind: found.kind, time: time, regionKey: found.region, region: regions.name(at: found.region),
                    device: item.device, distance: found.distance)
                outputs.transitions.append(DeviceOutputs.Found(transition: transition, unmonitored: found.unmonitored ?? false))
            }
            for key in item.inaccurate ?? [] where !(0..<regions.count).contains(key) {
                throw reader.problem("region \(key) is not one of this run's regions")
            }
            outputs.inaccurateKeys += item.inaccurate ?? []
            outputs.appendReleased(
                fix, transitions: item.transitions?.count ?? 0, inaccurateKeys: item.inaccurate?.count, keepingFix: true)
        }
    }
}
