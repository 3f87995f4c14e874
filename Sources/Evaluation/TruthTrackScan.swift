import GeoCore

/// One device's true events and coverage, found as its truth points
/// arrive in time order, a few hundred points held at a time: the events
/// of ``TrueEventFinder/events(along:device:)`` and the coverage of
/// ``TruthCoverage/add(_:)-(Points)`` on the whole track, without the track.
public struct TruthTrackScan: Sendable {
    /// The device.
    public let device: String?
    /// The points not scanned yet; the first is the end of the last stretch
    /// scanned, which the next one starts from.
    private var pending: [TruthPoint] = []
    private var found: TrueEventFinder.Found
    /// The track's measure.
    public private(set) var coverage = TruthCoverage.Track()
    /// The points added.
    public private(set) var count = 0

    /// Segments scanned at once: the most ``TrueEventFinder/scan(_:into:)``
    /// follows under one index query, so that scanning in pieces costs
    /// no more queries than scanning whole. Every device of the truth
    /// holds that many points at most (6 KB); with 4 096 it was 100–200 KB
    /// a device, 200 MB for a truth of 1 000 devices.
    static let stretch = 256

    /// No point of `device` yet.
    public init(device: String?) {
        self.device = device
        found = TrueEventFinder.Found(device: device)
    }

    /// Adds the track's next point; `false`, adding nothing, when it is
    /// earlier than the last one (the track is not in time order).
    public mutating func add(_ point: TruthPoint, finder: TrueEventFinder) -> Bool {
        if let last = pending.last, point.time < last.time { return false }
        pending.append(point)
        coverage.add(point)
        count += 1
        if pending.count > Self.stretch {
            finder.scan(pending, into: &found)
            pending.removeFirst(pending.count - 1)
        }
        return true
    }

    /// The track's true events in the order of
    /// ``TrueEventFinder/events(along:device:)``.
    public mutating func finish(finder: TrueEventFinder) -> [ScoredEvent] {
        finder.scan(pending, into: &found)
        pending = []
        return found.sorted()
    }
}
