import FeedParsing
import Foundation
import GeoCore
import Geofencing

/// The per-device stages of one `--shard I/N`: the devices whose
/// ``DeviceShard`` is I go through them; what the tasks' side needs of
/// their outcomes is written as ``ShardLine``s for `repeat-sim merge`.
///
/// Every input of a feed is counted, within the feed, whichever shard
/// takes it, so the merge can put the shards' outcomes back in the feed's
/// order; a feed file named after another shard's device that names none
/// of its own is not read at all (``FeedRun``). An
/// outcome is written when it matters to the tasks' side: a fix with
/// transitions or regions it would have entered, a fix dropped or without
/// time, the shard's first released fix, and a released fix whose time
/// makes a due reminder fall on the shard's own clock. The merge's clock,
/// the greatest time written so far by any shard, then passes each due
/// time at the same input as the unsharded run's clock: that input's
/// shard passed it there too, on its own clock.
///
/// With `--jobs` above 1, the shard's devices go through ``ShardedStages``'
/// workers instead of this writer's stages, and the writer takes their
/// outcomes in the feed's order as an ``OutcomeConsumer``: the same lines.
public final class ShardWriter: OutcomeConsumer {
    private let header: ShardHeader
    private var router: DeviceShard
    private var stages: DeviceStages
    /// The tasks' side on this shard's fixes alone: only its clock is used.
    private var clock: ReminderPipeline
    private var releasedAny = false
    private var outputs = DeviceOutputs()
    /// The inputs of the feed ``inputsFeed`` taken so far, other shards'
    /// included.
    private var inputs = 0
    private var inputsFeed = 0
    private let output: ByteWriter
    private let encoder = JSONEncoder()
    /// The lines written so far.
    public private(set) var linesWritten = 0
    /// The transitions of the shard's devices written so far (a run
    /// without `--shard` counts them all in its output).
    public private(set) var transitionsWritten = 0
    /// The counts written at the end.
    public private(set) var summary: ShardSummary?
    /// Why the first line that could not be written, taking outcomes from
    /// ``ShardedStages``, was not: nothing more is written after it, not
    /// even the counts, so that `repeat-sim merge` refuses the file.
    private var failure: (any Error)?
    /// Whether ``newFailure()`` handed ``failure`` on.
    private var failureHandedOn = false

    /// A writer of the shard `header` describes, over stages like
    /// `pipeline`'s, writing to `output`; writes the header at once.
    public init(header: ShardHeader, pipeline: ReminderPipeline, output: ByteWriter) throws {
        self.header = header
        router = DeviceShard(count: header.count)
        stages = pipeline.emptyDeviceStages()
        // A line carries a released fix's position and device.
        stages.keepsReleasedFixes = true
        clock = pipeline
        self.output = output
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try write(ShardLine(header: header))
    }

    /// Whether the device `name` is this shard's.
    func holds(device name: String) -> Bool {
        var router = DeviceShard(count: header.count)
        return router.shard(of: name) == header.index
    }

    /// The shard's stages, holding no device yet, for the workers of
    /// ``ShardedStages`` to copy; and which shard they take.
    var workerTemplate: (stages: DeviceStages, shard: (index: Int, count: Int)) {
        (stages, (header.index, header.count))
    }

    /// Takes one read of the feed at position `feed`: its fixes, then its
    /// epochs without a fix.
    public func take(feed: Int, fixes: [Fix], epochs: [EpochWithoutFix]) throws {
        if feed != inputsFeed {
            inputsFeed = feed
            inputs = 0
        }
        for fix in fixes {
            defer { inputs += 1 }
            guard router.shard(of: fix.deviceID) == header.index else { continue }
            outputs.removeAll()
            stages.push(fix, into: &outputs)
            try writeAll(input: inputs, finishing: nil, feed: feed)
        }
        for epoch in epochs {
            defer { inputs += 1 }
            guard router.shard(of: epoch.device) == header.index else { continue }
            outputs.removeAll()
            stages.advance(device: epoch.device, to: epoch.time, into: &outputs)
            try writeAll(input: inputs, finishing: nil, feed: feed)
        }
    }

    /// Hands on what the reorder buffer holds, device by device in name
    /// order (unless `--strict` stopped the run), then writes the counts.
    public func finish(unreadable: [String], stoppedAtMalformedRecord stopped: Bool, lastFeed: Int) throws {
        if !stopped {
            for id in stages.deviceIDs.byName() {
                outputs.removeAll()
                stages.finish(device: id, into: &outputs)
                try writeAll(input: nil, finishing: id.name, feed: lastFeed)
            }
        }
        try finish(counting: [stages], unreadable: unreadable, stoppedAtMalformedRecord: stopped)
    }

    /// Writes the counts of `stages`, the workers' of ``ShardedStages``
    /// that took the shard's devices (and handed their last outcomes to
    /// this writer), or the writer's own.
    func finish(counting stages: [DeviceStages], unreadable: [String], stoppedAtMalformedRecord stopped: Bool) throws {
        guard failure == nil else { return }
        var detector = DetectorStatistics()
        for shard in stages { detector.add(shard.detectorStatistics) }
        let summary = ShardSummary(
            accepted: detector.accepted, inaccurate: detector.inaccurate, invalid: detector.invalid,
            outOfOrder: detector.outOfOrder, devices: stages.reduce(0) { $0 + $1.deviceCount },
            monitorRefreshes: stages.reduce(0) { $0 + $1.monitorRefreshes }, unreadable: unreadable,
            stoppedAtMalformedRecord: stopped)
        try write(ShardLine(summary: summary))
        self.summary = summary
        output.flush()
    }

    func take(
        _ outputs: inout DeviceOutputs, inputs: Range<Int>, from cursor: inout DeviceOutputs.Cursor, firstInput: Int,
        feed: ShardedStages.Feed
    ) {
        for input in inputs {
            let end = outputs.itemEnds[input]
            recordingFailure {
                try write(
                    &outputs, through: end, from: &cursor, input: firstInput + input - inputs.lowerBound, finishing: nil,
                    feed: feed.index)
            }
        }
    }

    func endSlice(feed: ShardedStages.Feed) {}

    func finish(
        device: DeviceID, _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor,
        feed: ShardedStages.Feed
    ) {
        recordingFailure {
            try write(&outputs, through: end, from: &cursor, input: nil, finishing: device.name, feed: feed.index)
        }
    }

    /// The error of a line that could not be written, the first time it is
    /// asked for after it happened; `nil` otherwise.
    func newFailure() -> (any Error)? {
        guard let failure, !failureHandedOn else { return nil }
        failureHandedOn = true
        return failure
    }

    /// Runs `writing` unless a line could not be written before; keeps
    /// its error in ``failure``.
    private func recordingFailure(_ writing: () throws -> Void) {
        guard failure == nil else { return }
        do { try writing() } catch { failure = error }
    }

    /// Writes what matters to the tasks' side of all of ``outputs``.
    private func writeAll(input: Int?, finishing: String?, feed: Int) throws {
        var cursor = DeviceOutputs.Cursor()
        try write(&outputs, through: outputs.items.count, from: &cursor, input: input, finishing: finishing, feed: feed)
    }

    /// Writes the outcomes that matter to the tasks' side: the items of
    /// `outputs` from `cursor` (moved on) to item `end`.
    private func write(
        _ outputs: inout DeviceOutputs, through end: Int, from cursor: inout DeviceOutputs.Cursor, input: Int?,
        finishing: String?, feed: Int
    ) throws {
        while cursor.item < end {
            let item = outputs.items[cursor.item]
            cursor.item += 1
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
                precondition(item.fixKept, "a shard's stages keep the fixes they release")
                let fix = outputs.fixes[cursor.fix]
                cursor.fix += 1
                cursor.time += 1
                let found = outputs.transitions[cursor.transition..<cursor.transition + Int(item.transitions)]
                cursor.transition += Int(item.transitions)
                transitionsWritten += found.count
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
