import Evaluation
import GeoCore
import Geofencing
import Reporting

/// The truth points a ``ReportPlan``'s detail reads, gathered from truth
/// tracks read in time order per device: each device's first and last
/// point and the two around each time looked up, which is all its
/// interpolation reads; and the tracks near each drawn region, thinned
/// for its map as they come. Its size is bounded by the events and the
/// regions drawn, not by the truth's length. A class, as ``FixEvidence``.
public final class TruthEvidence: @unchecked Sendable {
    // Written by one thread at a time: the reader of the truth, then the
    // reporter once the reading is over.
    private let plan: ReportPlan
    private let boxes: [BoundingBox]
    private let drawnDevices: Set<String?>
    private var numbering = DeviceNumbering()
    private var devices: [DeviceTruth] = []
    /// Whether each device's points came in time order, as they must (a
    /// truth out of order is kept, sorted, and gathered a track at a time).
    public private(set) var isInTimeOrder = true

    init(plan: ReportPlan) {
        self.plan = plan
        boxes = plan.boxes
        drawnDevices = Set(plan.drawnDevices)
    }

    /// Takes the next truth point, each device's in time order; points
    /// without a time are left out, as the true events leave them out.
    public func add(_ fix: Fix) {
        guard let time = fix.time else { return }
        let (number, isNew) = numbering.number(of: fix.deviceID)
        if isNew { addDevice(fix.device) }
        let point = TruthPoint(time: time, coordinate: fix.coordinate)
        if let latest = devices[number].latest, point.time < latest.time { isInTimeOrder = false }
        devices[number].add(point, boxes: boxes, capacity: plan.pointsPerDevice)
    }

    /// Takes a whole track, in time order (a device's points all at once).
    public func add(_ track: TruthTrackPoints) {
        let (number, isNew) = numbering.number(of: track.device.map(DeviceID.init))
        if isNew { addDevice(track.device) }
        for point in track.points { devices[number].add(point, boxes: boxes, capacity: plan.pointsPerDevice) }
    }

    private func addDevice(_ device: String?) {
        devices.append(
            DeviceTruth(
                device: device, lookups: plan.positionLookups[device] ?? [],
                regions: drawnDevices.contains(device) ? boxes.count : 0))
    }

    /// Each device's points kept, in time order; and per drawn region the
    /// tracks near it, in pieces (devices by name).
    func finish() -> (tracks: [TruthTrackPoints], near: [[[Coordinate]]]) {
        let tracks = devices.map { TruthTrackPoints(device: $0.device, points: $0.finish()) }
        let drawn = devices.filter { !$0.sketches.isEmpty }.sorted { ($0.device ?? "") < ($1.device ?? "") }
        let near = boxes.indices.map { region in
            drawn.flatMap { $0.sketches[region].segments }
        }
        return (tracks, near)
    }
}

/// One truth device's points as they come.
private struct DeviceTruth: Sendable {
    let device: String?
    /// The times its position is looked up at, sorted; the next one's place.
    private let lookups: [Int64]
    private var nextLookup = 0
    /// The points kept, and the sequence number of the last one kept.
    private var kept: [TruthPoint] = []
    private var keptNumber = -1
    private var count = 0
    private var previous: TruthPoint?
    /// The latest point taken.
    var latest: TruthPoint? { previous }
    /// Per drawn region, its track near the region (none when not drawn).
    private(set) var sketches: [TruthSketch]

    init(device: String?, lookups: [Int64], regions: Int) {
        self.device = device
        self.lookups = lookups
        sketches = Array(repeating: TruthSketch(), count: regions)
    }

    mutating func add(_ point: TruthPoint, boxes: [BoundingBox], capacity: Int) {
        defer {
            previous = point
            count += 1
        }
        if count == 0 { keep(point, number: 0) }
        // A lookup reads the first point at or after its time and the one before.
        while nextLookup < lookups.count, lookups[nextLookup] <= point.time.nanoseconds {
            if let previous { keep(previous, number: count - 1) }
            keep(point, number: count)
            nextLookup += 1
        }
        for index in sketches.indices {
            sketches[index].add(point, box: boxes[index], capacity: capacity)
        }
    }

    private mutating func keep(_ point: TruthPoint, number: Int) {
        guard number > keptNumber else { return }
        kept.append(point)
        keptNumber = number
    }

    /// The points kept, the last one with them.
    func finish() -> [TruthPoint] {
        guard let previous, keptNumber < count - 1 else { return kept }
        return kept + [previous]
    }
}

/// A truth device's track near one drawn region, a piece per pass through
/// it, thinned for the map as it comes.
private struct TruthSketch: Sendable {
    private var inside = false
    private var pass = 0
    private var tracks: TrackCollector?

    /// The pieces kept, passes in order.
    var segments: [[Coordinate]] { tracks?.result.flatMap(\.segments) ?? [] }

    mutating func add(_ point: TruthPoint, box: BoundingBox, capacity: Int) {
        let now = box.contains(point.coordinate)
        if now, !inside { pass += 1 }
        inside = now
        guard now else { return }
        if tracks == nil { tracks = TrackCollector(capacity: capacity) }
        tracks?.add(point.coordinate, device: String(pass), time: point.time.secondsSince1970)
    }
}
