import Evaluation
import GeoCore
import Geofencing

/// Fixes one setting delivered to the detector (after `--interval`), per
/// truth device in time order, as indices: the report's events look up
/// the fix delivered last before them.
struct DeliveredFixes {
    /// The fixes: among a device's fixes at the same time, in the order
    /// they were delivered.
    let fixes: [Fix]
    /// Per truth device: indices of its fixes, in time order.
    private var byDevice: [String?: [Int32]] = [:]
    /// Per truth device: the times of ``byDevice``'s fixes (nanoseconds).
    private var times: [String?: [Int64]] = [:]

    /// `fixes`, named after their truth devices, each with a time.
    init(_ fixes: [Fix]) {
        self.fixes = fixes
        for (index, fix) in fixes.enumerated() { byDevice[fix.device, default: []].append(Int32(index)) }
        for (device, indices) in byDevice {
            let sorted = indices.sorted { (fixes[Int($0)].time!, $0) < (fixes[Int($1)].time!, $1) }
            byDevice[device] = sorted
            times[device] = sorted.map { fixes[Int($0)].time!.nanoseconds }
        }
    }

    /// `device`'s last fix at or before `time` (else its first fix).
    func fix(of device: String?, at time: Timestamp) -> Fix? {
        guard let indices = byDevice[device], let times = times[device], !indices.isEmpty else { return nil }
        let after = times.partitionPoint { $0 > time.nanoseconds }
        return fixes[Int(indices[max(after - 1, 0)])]
    }
}

/// Where each truth device really was at a given time: the truth track
/// interpolated linearly between its points (the tracks are shared, not
/// copied).
struct TruthPositions {
    private var tracks: [String?: [TruthPoint]] = [:]

    /// The positions of `tracks`.
    init(_ tracks: [TruthTrackPoints]) {
        for track in tracks { self.tracks[track.device] = track.points }
    }

    /// `device`'s position at `time`; `nil` outside its track.
    func position(of device: String?, at time: Timestamp) -> Coordinate? {
        guard let points = tracks[device], let first = points.first, let last = points.last, time >= first.time,
            time <= last.time
        else { return nil }
        let low = points.partitionPoint { $0.time >= time }
        guard low > 0 else { return first.coordinate }
        let before = points[low - 1], after = points[low]
        let span = after.time.nanoseconds(since: before.time)
        let fraction = span > 0 ? time.nanoseconds(since: before.time) / span : 1
        return interpolate(from: before.coordinate, to: after.coordinate, fraction: fraction)
    }

    /// `device`'s track.
    func points(of device: String?) -> [TruthPoint] { tracks[device] ?? [] }
}
