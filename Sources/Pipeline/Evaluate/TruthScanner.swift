import Evaluation
import GeoCore

/// The true events, coverage and reference reminders of a truth feed
/// found fix by fix, without keeping its tracks: what
/// ``FeedEvaluation/truth(of:feedDevices:)`` finds on the tracks a
/// ``TruthTrackBuilder`` gathers from the same fixes, while they come in
/// time order (``isInTimeOrder``).
public struct TruthScanner: Sendable {
    private let finder: TrueEventFinder
    /// Without a shard, each device's number is its scan's place.
    private var numbering = DeviceNumbering()
    private var scans: [TruthTrackScan] = []
    /// With `--shard`: the shard, and by device number the place of the
    /// device's scan, −1 for another shard's device (its points are only
    /// counted: none, one, more), which has no scan.
    private let shard: EvaluationShard?
    private var scanPlaces: [Int32] = []
    private var skippedPoints: [UInt8] = []
    /// With tasks: their reminders on the truth, and the points of the
    /// latest instant, which go to them in device order once a later
    /// point comes (the order of the kept tracks' merge).
    private var reference: FeedEvaluation.ReferenceReminders?
    private var instant: [(device: Int, point: TruthPoint)] = []
    /// Whether the points so far came in time order: each device's, and
    /// with tasks all devices' together. Once they did not, the rest are
    /// not scanned (the tracks must be kept and sorted instead).
    public private(set) var isInTimeOrder = true

    /// Whether some device has two points or more: a track with a segment.
    public var hasSegment: Bool { scans.contains { $0.count > 1 } || skippedPoints.contains { $0 > 1 } }

    /// A scanner for the regions and tasks of `evaluation`; with `shard`
    /// (and no tasks), of the devices of that shard only: those whose name
    /// it holds as a feed device's, and the first, which a single feed
    /// device takes whatever their names. The others' events and coverage
    /// come out empty.
    public init(evaluation: FeedEvaluation, shard: EvaluationShard? = nil) {
        finder = evaluation.trueEventFinder()
        reference = evaluation.scoresReminders ? FeedEvaluation.ReferenceReminders(evaluation) : nil
        precondition(shard == nil || reference == nil, "a task's reminders span every device")
        self.shard = shard
    }

    /// Adds one truth point; fixes without time are left out.
    public mutating func add(_ fix: Fix) {
        guard isInTimeOrder, let time = fix.time else { return }
        var (device, isNew) = numbering.number(of: fix.deviceID)
        if let shard {
            if isNew {
                let isOthers = device > 0 && !shard.holds(feedDevice: fix.device)
                scanPlaces.append(isOthers ? -1 : Int32(scans.count))
                skippedPoints.append(0)
                if !isOthers { scans.append(TruthTrackScan(device: fix.device)) }
            }
            guard scanPlaces[device] >= 0 else {
                skippedPoints[device] = min(skippedPoints[device] + 1, 2)
                return
            }
            device = Int(scanPlaces[device])
        } else if isNew {
            scans.append(TruthTrackScan(device: fix.device))
        }
        let point = TruthPoint(time: time, coordinate: fix.coordinate)
        isInTimeOrder = scans[device].add(point, finder: finder)
        guard reference != nil, isInTimeOrder else { return }
        if let latest = instant.first?.point.time, latest != time {
            guard latest < time else {
                isInTimeOrder = false
                return
            }
            remindAtInstant()
        }
        instant.append((device, point))
    }

    /// Hands the points of the latest instant to the reference reminders,
    /// in device order.
    private mutating func remindAtInstant() {
        let order = instant.indices.sorted { (instant[$0].device, $0) < (instant[$1].device, $1) }
        for index in order { reference?.push(instant[index].point, device: scans[instant[index].device].device) }
        instant.removeAll(keepingCapacity: true)
    }

    /// The truth devices in order of first appearance, their true events
    /// in the order ``FeedEvaluation/truth(of:feedDevices:)`` gives them,
    /// each device's coverage, and with tasks the reference reminders.
    public mutating func finish() -> (
        devices: [String?], events: [ScoredEvent], coverage: [TruthCoverage], reminders: [ScoredEvent]?
    ) {
        precondition(isInTimeOrder, "a truth out of time order is scored from its kept tracks")
        var events: [ScoredEvent] = []
        var scanned: [TruthCoverage] = []
        scanned.reserveCapacity(scans.count)
        for index in scans.indices {
            events += scans[index].finish(finder: finder)
            scanned.append(TruthCoverage(scans[index].coverage))
        }
        remindAtInstant()
        let reminders = reference?.finish()
        // Other shards' devices cover nothing here.
        let coverage =
            shard == nil ? scanned : scanPlaces.map { $0 < 0 ? TruthCoverage() : scanned[Int($0)] }
        scans = []
        reference = nil
        return (numbering.devices, events, coverage, reminders)
    }
}
