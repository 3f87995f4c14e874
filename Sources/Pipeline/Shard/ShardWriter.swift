import FeedParsing
import Foundation
import GeoCore

/// The per-device stages of one `--shard I/N`: the devices whose
/// ``DeviceShard`` is I go through them; what the tasks' side needs of
/// their outcomes is written as ``ShardLine``s for `repeat-sim merge`.
///
/// Every input of the run is counted, whichever shard takes it, so the
/// merge can put the shards' outcomes back in the feed's order. An
/// outcome is written when it matters to the tasks' side: a fix with
/// transitions or regions it would have entered, a fix dropped or without
/// time, the shard's first released fix, and a released fix whose time
/// makes a due reminder fall on the shard's own clock. The merge's clock,
/// the greatest time written so far by any shard, then passes each due
/// time at the same input as the unsharded run's clock: that input's
/// shard passed it there too, on its own clock.
public final class ShardWriter {
    private let header: ShardHeader
    private var router: DeviceShard
    private var stages: DeviceStages
    /// The tasks' side on this shard's fixes alone: only its clock is used.
    private var clock: ReminderPipeline
    private var releasedAny = false
    private var outputs = DeviceOutputs()
    private var inputs = 0
    private let output: ByteWriter
    private let encoder = JSONEncoder()
    /// The lines written so far.
    public private(set) var linesWritten = 0
    /// The counts written at the end.
    public private(set) var summary: ShardSummary?

    /// A writer of the shard `header` describes, over stages like
    /// `pipeline`'s, writing to `output`; writes the header at once.
    public init(header: ShardHeader, pipeline: ReminderPipeline, output: ByteWriter) throws {
        self.header = header
        router = DeviceShard(count: header.count)
        stages = pipeline.emptyDeviceStages()
        clock = pipeline
        self.output = output
        encoder.outputFormatting = [.withoutEscapingSlashes]
        try write(ShardLine(header: header))
    }

    /// Takes one read of the feed at position `feed`: its fixes, then its
    /// epochs without a fix.
    public func take(feed: Int, fixes: [Fix], epochs: [EpochWithoutFix]) throws {
        for fix in fixes {
            defer { inputs += 1 }
            guard router.shard(of: fix.deviceID) == header.index else { continue }
            outputs.removeAll()
            stages.push(fix, into: &outputs)
            try write(outputs, input: inputs, finishing: nil, feed: feed)
        }
        for epoch in epochs {
            defer { inputs += 1 }
            guard router.shard(of: epoch.device) == header.index else { continue }
            outputs.removeAll()
            stages.advance(device: epoch.device, to: epoch.time, into: &outputs)
            try write(outputs, input: inputs, finishing: nil, feed: feed)
        }
    }

    /// Hands on what the reorder buffer holds, device by device in name
    /// order (unless `--strict` stopped the run), then writes the counts.
    public func finish(unreadable: [String], stoppedAtMalformedRecord stopped: Bool, lastFeed: Int) throws {
        if !stopped {
            for id in stages.deviceIDs.byName() {
                outputs.removeAll()
                stages.finish(device: id, into: &outputs)
                try write(outputs, input: nil, finishing: id.name, feed: lastFeed)
            }
        }
        let detector = stages.detectorStatistics
        let summary = ShardSummary(
            accepted: detector.accepted, inaccurate: detector.inaccurate, invalid: detector.invalid,
            outOfOrder: detector.outOfOrder, devices: stages.deviceCount, monitorRefreshes: stages.monitorRefreshes,
            unreadable: unreadable, stoppedAtMalformedRecord: stopped)
        try write(ShardLine(summary: summary))
        self.summary = summary
        output.flush()
    }

    /// Writes the outcomes that matter to the tasks' side.
    private func write(_ outputs: DeviceOutputs, input: Int?, finishing: String?, feed: Int) throws {
        var cursor = DeviceOutputs.Cursor()
        for item in outputs.items {
            var line = ShardItem(input: input, finishing: finishing, feed: feed, outcome: .released, position: [])
            switch item.outcome {
            case .untimed:
                let fix = outputs.untimedFixes[cursor.untimed]
                cursor.untimed += 1
                line.outcome = .untimed
                line.position = [fix.coordinate.latitude, fix.coordinate.longitude]
                line.device = fix.device
            case .late:
                let fix = outputs.fixes[cursor.fix]
                cursor.fix += 1
                line.outcome = .late
                line.time = fix.time.shardValue
                line.position = [fix.coordinate.latitude, fix.coordinate.longitude]
                line.device = fix.device
            case .released:
                let fix = outputs.fixes[cursor.fix]
                cursor.fix += 1
                let found = outputs.transitions[cursor.transition..<cursor.transition + Int(item.transitions)]
                cursor.transition += Int(item.transitions)
                let keys =
                    item.inaccurateKeys < 0
                    ? nil : Array(outputs.inaccurateKeys[cursor.key..<cursor.key + Int(item.inaccurateKeys)])
                cursor.key += keys?.count ?? 0
                let first = !releasedAny
                releasedAny = true
                let clockPassesDue = clock.clockPassesDue(at: fix.time)
                guard first || clockPassesDue || !found.isEmpty || keys != nil else { continue }
                line.time = fix.time.shardValue
                line.position = [fix.coordinate.latitude, fix.coordinate.longitude]
                line.device = fix.device
                if !found.isEmpty {
                    line.transitions = found.map {
                        ShardTransition(
                            kind: $0.transition.kind, time: $0.transition.time.shardValue, region: $0.transition.regionKey,
                            distance: $0.transition.distance, unmonitored: $0.unmonitored ? true : nil)
                    }
                }
                line.inaccurate = keys
            }
            try write(line)
        }
    }

    /// Writes an item's line directly; through the encoder only if it
    /// holds a number JSON cannot (whose error the encoder reports).
    private func write(_ item: ShardItem) throws {
        guard item.appendLine(to: &output.bytes) else { return try write(ShardLine(item: item)) }
        output.bytes.append(UInt8(ascii: "\n"))
        output.flushIfFull()
        linesWritten += 1
    }

    private func write(_ line: ShardLine) throws {
        output.bytes += try encoder.encode(line)
        output.bytes.append(UInt8(ascii: "\n"))
        output.flushIfFull()
        linesWritten += 1
    }
}
