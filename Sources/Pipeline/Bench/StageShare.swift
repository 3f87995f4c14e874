import FeedParsing
import Foundation
import GeoCore

/// The CPU time of decoding against that of the stages, measured in
/// lockstep: each read of a feed is decoded, then its fixes go through the
/// stages, and both are timed on the calling thread (``ThreadCPUClock``),
/// so that the two see the same machine from one millisecond to the next.
/// Over several runs each read keeps its fastest decode and its fastest
/// stages, so that a burst of load in one run does not decide the figure.
struct StageShare {
    /// The fastest CPU seconds of each read, decoding and stages.
    private(set) var reads: [(decode: Double, stages: Double)] = []

    /// Decode seconds summed over the reads.
    var decodeSeconds: Double { reads.reduce(0) { $0 + $1.decode } }
    /// Stage seconds summed over the reads.
    var stageSeconds: Double { reads.reduce(0) { $0 + $1.stages } }

    /// The pipeline's rate over the decoder's alone: decode / (decode +
    /// stages); `nil` before a run.
    var pipelineVsDecode: Double? {
        let total = decodeSeconds + stageSeconds
        return reads.isEmpty || total <= 0 ? nil : decodeSeconds / total
    }

    /// Runs `feeds` once through `pipeline`, or through the per-device
    /// stages of `shard` as `replay --shard` runs them, and keeps each
    /// read's fastest times. Fixes without a device take the file's name
    /// when `settings` say so and there are several files, as in ``FeedRun``.
    /// - Throws: what reading a feed throws.
    mutating func run(
        feeds: [String], settings: RunSettings, pipeline: ReminderPipeline, shard: FeedBench.Shard? = nil
    ) throws {
        var stages = pipeline
        let writer = shard?.writer(over: pipeline)
        var events: [ReminderPipeline.Event] = []
        var index = 0
        for (feed, path) in feeds.enumerated() {
            let name = settings.namesDevicesAfterFiles && feeds.count > 1 ? (path as NSString).lastPathComponent : nil
            if FeedRun.shardLeavesOut(path, device: name, writer: writer, settings: settings) { continue }
            let device = name.map(DeviceID.init)
            var mark = ThreadCPUClock.now()
            try FeedFileDecoding.decode(path: path, format: settings.format, options: settings.decoding) { batch in
                let decoded = ThreadCPUClock.now()
                if let writer {
                    if let device {
                        for fix in batch.fixes.indices where batch.fixes[fix].deviceID == nil {
                            batch.fixes[fix].deviceID = device
                        }
                    }
                    try writer.take(feed: feed, fixes: batch.fixes, epochs: [])
                } else {
                    events.removeAll(keepingCapacity: true)
                    for var fix in batch.fixes {
                        if fix.deviceID == nil, let device { fix.deviceID = device }
                        stages.push(fix, into: &events)
                    }
                }
                let staged = ThreadCPUClock.now()
                record(index, decode: decoded - mark, stages: staged - decoded)
                index += 1
                mark = ThreadCPUClock.now()
                return true
            }
        }
        let finishing = ThreadCPUClock.now()
        if let writer {
            try writer.finish(unreadable: [], stoppedAtMalformedRecord: false, lastFeed: max(feeds.count - 1, 0))
        } else {
            stages.finish(into: &events)
        }
        record(index, decode: 0, stages: ThreadCPUClock.now() - finishing)
    }

    private mutating func record(_ index: Int, decode: Double, stages: Double) {
        if index < reads.count {
            reads[index] = (min(reads[index].decode, decode), min(reads[index].stages, stages))
        } else {
            reads.append((decode, stages))
        }
    }
}
