import GeoCore

/// Collects devices' tracks for drawing in bounded memory: a streaming
/// radial decimation whose tolerance doubles whenever the points kept
/// would exceed the capacity.
///
/// A point is kept when it is at least ``tolerance`` metres from the last
/// point kept on its segment; the latest point of each segment is always
/// kept as well, so a track ends where it ended. When more than
/// `capacity` points are kept in all, the tolerance doubles and every
/// segment is decimated again, so memory stays O(capacity) however long
/// the feed. Every point received lies within 2 × ``tolerance`` of a kept
/// point of its segment (the sum of the halving tolerances before). For
/// drawing only: the stages always see every fix.
///
/// A device's track is split into segments where fixes are more than
/// `gapSeconds` apart, so that separate trips are not joined by a line.
/// Segments (a device's first one included) are limited to a quarter of
/// the capacity: past that, a gap no longer splits, and a new device's
/// fixes are counted in ``undrawn`` but not kept.
public struct TrackCollector: Sendable {
    /// One device's track: segments of kept points, in time order.
    public struct Track: Hashable, Sendable {
        /// The device's name (empty for a feed's unnamed device).
        public var device: String
        /// The segments, each at least one point.
        public var segments: [[Coordinate]]
        /// Fixes received for this device.
        public var received: Int
    }

    /// The current tolerance in metres.
    public private(set) var tolerance: Double
    /// Fixes received in all.
    public private(set) var received = 0
    /// Fixes of devices seen after the segment limit was reached: not drawn.
    public private(set) var undrawn = 0
    private let capacity: Int
    private let gapSeconds: Double
    private var tracks: [Track] = []
    private var index: [String: Int] = [:]
    /// The device of the latest fix kept, and its track's place.
    private var latestDevice: (name: String, slot: Int)?
    /// Per track: the latest point (when not kept) and its time.
    private var latest: [(point: Coordinate?, time: Double)] = []
    private var kept = 0
    private var segments = 0

    /// A collector keeping at most about `capacity` points.
    /// - Parameters:
    ///   - tolerance: the starting tolerance in metres.
    ///   - gapSeconds: a pause longer than this starts a new segment.
    public init(capacity: Int = 100_000, tolerance: Double = 1, gapSeconds: Double = 1800) {
        precondition(capacity >= 8 && tolerance > 0, "a track collector needs room and a positive tolerance")
        self.capacity = capacity
        self.tolerance = tolerance
        self.gapSeconds = gapSeconds
    }

    /// Takes the next fix of `device` at `time` (seconds; non-decreasing per device).
    public mutating func add(_ point: Coordinate, device: String, time: Double) {
        received += 1
        let roomForSegment = segments < capacity / 4
        // Most fixes are of the device before: no hashing of its name.
        let known = latestDevice?.name == device ? latestDevice?.slot : index[device]
        guard let slot = known ?? newTrack(device, allowed: roomForSegment) else { return }
        latestDevice = (device, slot)
        tracks[slot].received += 1
        let segment = tracks[slot].segments.count - 1
        if segment < 0 || (time - latest[slot].time > gapSeconds && roomForSegment) {
            closeSegment(slot)
            tracks[slot].segments.append([point])
            segments += 1
            kept += 1
        } else if Self.farther(point, than: tolerance, from: tracks[slot].segments[segment].last!) {
            tracks[slot].segments[segment].append(point)
            latest[slot].point = nil
            kept += 1
        } else {
            latest[slot].point = point
        }
        latest[slot].time = time
        while kept > capacity { coarsen() }
    }

    private mutating func newTrack(_ device: String, allowed: Bool) -> Int? {
        guard allowed else {
            undrawn += 1
            return nil
        }
        index[device] = tracks.count
        tracks.append(Track(device: device, segments: [], received: 0))
        latest.append((nil, -.infinity))
        return tracks.count - 1
    }

    /// The tracks in order of first appearance, each segment ending with
    /// its latest point.
    public var result: [Track] {
        var result = tracks
        for slot in result.indices {
            if let point = latest[slot].point { result[slot].segments[result[slot].segments.count - 1].append(point) }
        }
        return result
    }

    /// Keeps the segment's latest point before a new segment starts.
    private mutating func closeSegment(_ slot: Int) {
        guard let point = latest[slot].point else { return }
        tracks[slot].segments[tracks[slot].segments.count - 1].append(point)
        latest[slot].point = nil
        kept += 1
    }

    /// Doubles the tolerance and decimates every segment again.
    private mutating func coarsen() {
        tolerance *= 2
        kept = 0
        for slot in tracks.indices {
            for segment in tracks[slot].segments.indices {
                let points = tracks[slot].segments[segment]
                var thinned = [points[0]]
                for point in points.dropFirst() where Self.farther(point, than: tolerance, from: thinned[thinned.count - 1]) {
                    thinned.append(point)
                }
                if let last = points.last, thinned.last != last { thinned.append(last) }  // a segment keeps its end
                tracks[slot].segments[segment] = thinned
                kept += thinned.count
            }
        }
    }

    /// Whether `a` is at least `metres` from `b` on the local plane (the
    /// equirectangular distance, within 1 % of the great circle at these
    /// distances; most fixes are decided by latitude alone).
    private static func farther(_ a: Coordinate, than metres: Double, from b: Coordinate) -> Bool {
        let north = (a.latitude - b.latitude) * Geodesy.metresPerDegree
        if abs(north) >= metres { return true }
        let east = Geodesy.wrapLongitude(a.longitude - b.longitude) * Geodesy.metresPerDegree * cosine(degrees: b.latitude)
        return north * north + east * east >= metres * metres
    }
}
