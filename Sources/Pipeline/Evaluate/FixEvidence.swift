import Evaluation
import GeoCore
import Geofencing
import Reporting

/// The fixes a ``ReportPlan``'s detail reads, gathered from a feed read
/// in order: of the fixes the setting delivers (after `--interval`), the
/// counts of those in each miss's window (``MissTally``), and the last one
/// at or before each time looked up (and each device's first); of those
/// near a drawn region, only the strip's counts and a sample of dots. What
/// it keeps grows with the events, and with the fixes within the accuracy
/// gate in the windows of missed entries (16 bytes each), not otherwise
/// with the feed.
public final class FixEvidence: @unchecked Sendable {
    // Written by one thread at a time: the reader of the feed, then the
    // reporter once the reading is over.
    private let plan: ReportPlan
    private let boxes: [BoundingBox]
    private var decimator: IntervalDecimator
    /// The feed's devices by number, each with what is looked up of it.
    private var numbering = DeviceNumbering()
    private var devices: [FeedDevice] = []
    /// How many fixes were delivered before.
    private var position = 0
    /// What each of the plan's miss windows counted, in its order.
    private var tallies: [MissTally]
    private var sketches: [FixSketch]

    init(plan: ReportPlan) {
        self.plan = plan
        boxes = plan.boxes
        decimator = IntervalDecimator(seconds: plan.setting.interval)
        tallies = plan.missWindows.map(MissTally.init)
        sketches = plan.drawn.map { _ in FixSketch(plan: plan) }
    }

    /// Takes the feed's next fix (every fix, in the feed's order).
    public func add(_ fix: Fix) {
        guard decimator.keeps(fix), let time = fix.time else { return }
        let (number, isNew) = numbering.number(of: fix.deviceID)
        if isNew { devices.append(FeedDevice(plan.devices.truthDevice(of: fix.device), plan: plan)) }
        guard let truthID = devices[number].truthID else { return }
        defer { position += 1 }
        devices[number].windows?.forEach(holding: time.nanoseconds) { place in
            tallies[place].add(fix.coordinate, time: time.nanoseconds, position: position, accuracy: fix.effectiveAccuracy)
        }
        if !devices[number].lookups.times.isEmpty {
            var named = fix
            named.deviceID = truthID
            devices[number].lookups.offer(.init(time: time.nanoseconds, position: position, fix: named))
        }
        for index in boxes.indices where boxes[index].contains(fix.coordinate) {
            sketches[index].add(fix, time: time)
        }
    }

    /// The fixes that answer the lookups, each once, in the order they
    /// were delivered, named after their truth devices; what each miss's
    /// window counted, by the missed event's place among the true events;
    /// and each drawn region's sketch. Leaves the gatherer empty.
    func finish() -> (fixes: [Fix], tallies: [Int: MissTally], sketches: [FixSketch]) {
        let answers = devices.flatMap { $0.lookups.answers() }.sorted { $0.position < $1.position }
        var fixes: [Fix] = []
        for (index, answer) in answers.enumerated() where index == 0 || answers[index - 1].position != answer.position {
            fixes.append(answer.fix)
        }
        var counted: [Int: MissTally] = [:]
        for tally in tallies { counted[tally.window.truthIndex] = tally }
        tallies = []
        return (fixes, counted, sketches)
    }
}

/// A feed device: its truth device (`nil`: it has none) and, under that
/// name, the miss windows and lookups of the plan. Several feed devices
/// may share a truth device (files named after it): they count into the
/// same windows, and each has its own lookup candidates, since the
/// answers are the latest of them all.
private struct FeedDevice: Sendable {
    /// The truth device's name to give its fixes (`.some(nil)`: the unnamed one).
    let truthID: DeviceID??
    let windows: MissWindowSearch?
    var lookups: FixLookups

    init(_ truthDevice: String??, plan: ReportPlan) {
        truthID = truthDevice.map { $0.map(DeviceID.init) }
        let name = truthDevice.flatMap { $0 }
        let known = truthDevice != nil
        windows = known ? plan.missWindowSearch[name] : nil
        lookups = FixLookups(times: known ? plan.fixLookups[name] ?? [] : [])
    }
}

/// One device's fix lookups: for each time, the latest fix delivered at
/// or before it (of two at the same time, the later delivered), and the
/// device's earliest fix for a time before them all. Fixes come in any
/// time order, so each is kept only if it is the latest of its bucket (the
/// fixes after one lookup time, up to and at the next); a lookup's answer
/// is the latest of its bucket and those before it.
private struct FixLookups: Sendable {
    /// A delivered fix, ordered by its time and then its delivery.
    struct Candidate: Sendable {
        var time: Int64
        var position: Int
        var fix: Fix

        func precedes(_ other: Candidate) -> Bool { (time, position) < (other.time, other.position) }
    }

    /// The lookups' times, sorted.
    let times: [Int64]
    private var buckets: [Candidate?]
    private var earliest: Candidate?

    init(times: [Int64]) {
        self.times = times
        buckets = Array(repeating: nil, count: times.count)
    }

    /// Takes a fix of the device.
    mutating func offer(_ candidate: Candidate) {
        if earliest.map({ candidate.precedes($0) }) ?? true { earliest = candidate }
        // The bucket: the first lookup at or after the fix's time.
        let bucket = times.partitionPoint { $0 >= candidate.time }
        guard bucket < buckets.count, buckets[bucket].map({ $0.precedes(candidate) }) ?? true else { return }
        buckets[bucket] = candidate
    }

    /// The fixes that answer the lookups, and the earliest.
    func answers() -> [(position: Int, fix: Fix)] {
        var answers: [(position: Int, fix: Fix)] = earliest.map { [($0.position, $0.fix)] } ?? []
        var best: Candidate?
        for case let bucket? in buckets where best.map({ $0.precedes(bucket) }) ?? true {
            best = bucket
            answers.append((bucket.position, bucket.fix))
        }
        return answers
    }
}

/// The fixes delivered near one drawn region: the strip's counts per time
/// bin, and an even sample of dots in their delivery order.
struct FixSketch: Sendable {
    /// The fixes of one cell of a strip.
    struct Bin: Sendable {
        var count = 0, good = 0, ignored = 0
        var accuracy = 0.0
    }

    private(set) var bins: [Bin]
    /// Every `stride`-th fix near the region from the first, at most
    /// ``PlaceDrawing/dotLimit``: the stride doubles when there would be more.
    private(set) var dots: [EvaluationReport.Dot] = []
    private var stride = 1
    private var near = 0
    /// The first bin's start and each bin's width, in seconds; the
    /// accuracy gate of the setting.
    private let first: Double, width: Double
    private let maxAccuracy: Double

    /// The strip of `plan`'s feed span in ``PlaceDrawing/bins`` bins.
    init(plan: ReportPlan) {
        bins = Array(repeating: Bin(), count: PlaceDrawing.bins)
        first = plan.span.start.secondsSince1970
        width = max(plan.span.end.secondsSince1970 - first, 1) / Double(PlaceDrawing.bins)
        maxAccuracy = plan.setting.geofence.maxAccuracy
    }

    mutating func add(_ fix: Fix, time: Timestamp) {
        let bin = min(max(Int((time.secondsSince1970 - first) / width), 0), bins.count - 1)
        let accuracy = fix.effectiveAccuracy ?? 0
        let accurate = accuracy <= maxAccuracy
        bins[bin].count += 1
        bins[bin].accuracy += accuracy
        if !accurate { bins[bin].ignored += 1 } else if accuracy <= PlaceDrawing.goodAccuracy { bins[bin].good += 1 }
        defer { near += 1 }
        guard near % stride == 0 else { return }
        let quality: EvaluationReport.FixQuality =
            !accurate ? .ignored : accuracy <= PlaceDrawing.goodAccuracy ? .accurate : .rough
        dots.append(EvaluationReport.Dot(coordinate: fix.coordinate, quality: quality))
        guard dots.count > PlaceDrawing.dotLimit else { return }
        // The dots at odd multiples of the stride go.
        stride *= 2
        dots = dots.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
}
