import FeedParsing
import GeoCore

/// Every setting of a sweep detecting on a feed while it is decoded, so
/// that the feed is never held whole: each read's fixes go through every
/// setting's ``FeedEvaluation/Detector`` (settings in parallel), in the
/// order a run over the kept fixes would take them.
public final class SweepDetection: RunSink {
    /// One setting's detector, changed only by the worker that has it.
    private final class Slot: @unchecked Sendable {
        var detector: FeedEvaluation.Detector
        init(_ detector: FeedEvaluation.Detector) { self.detector = detector }
    }

    private let slots: [Slot]
    private let jobs: Int
    private var numbering = DeviceNumbering()
    /// With `--shard`: the shard, and whether each device (by number) is
    /// its; the others' fixes are counted but not detected on.
    private let shard: EvaluationShard?
    private var isShards: [Bool] = []
    private var kept: [Fix] = []
    /// The fixes decoded.
    public private(set) var fixes = 0
    /// Whether any of them has a time.
    public private(set) var hasTimedFix = false
    /// Their first and last time.
    public private(set) var span = FeedSpan()
    /// Where the first of them was.
    public private(set) var firstPosition: Coordinate?
    /// The feed's devices in order of their first fix.
    public var feedDevices: [String?] { numbering.devices }

    /// Detection by each of `settings` for `evaluation`, on up to `jobs`
    /// threads; with `shard`, on the feed devices of that shard only.
    public init(evaluation: FeedEvaluation, settings: [EvaluationSetting], jobs: Int, shard: EvaluationShard? = nil) {
        slots = FeedEvaluation.Detector.detectors(evaluation, settings: settings).map(Slot.init)
        self.jobs = max(1, jobs)
        self.shard = shard
    }

    public func decoded(_ batch: FeedBatch, feed: String) {
        self.fixes += batch.fixes.count
        if firstPosition == nil { firstPosition = batch.fixes.first?.coordinate }
        for fix in batch.fixes {
            if !hasTimedFix, fix.time != nil { hasTimedFix = true }
            span.add(fix)
            let (device, isNew) = numbering.number(of: fix.deviceID)
            if let shard {
                if isNew { isShards.append(shard.holds(feedDevice: fix.device)) }
                if isShards[device] { kept.append(fix) }
            }
        }
        guard shard != nil else { return detect(batch.fixes) }
        detect(kept)
        // Emptied once the settings let go of it, so that its room is kept.
        kept.removeAll(keepingCapacity: true)
    }

    /// Every setting detects on `fixes`.
    private func detect(_ fixes: [Fix]) {
        if slots.count == 1 || jobs == 1 {
            for slot in slots { slot.detector.push(fixes) }
        } else {
            let slots = self.slots
            _ = parallelMap(count: slots.count, jobs: jobs) { slots[$0].detector.push(fixes) }
        }
    }

    /// What each setting detected, in the order of the settings, devices
    /// named as in the truth through `devices`.
    public func detections(devices: DeviceMatching) -> [FeedEvaluation.Detection] {
        slots.map { $0.detector.finish(devices: devices) }
    }
}
