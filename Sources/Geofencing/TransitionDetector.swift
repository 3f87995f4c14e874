import GeoCore

/// The per-device geofence state machine: fixes in, transitions out.
///
/// Feed it each device's fixes in time order (``process(_:)``); it returns
/// the transitions the fix causes, as actions for the caller to perform.
/// State is kept per (device, region) only for regions a device is inside
/// or entering, so memory grows with what devices are near, not with the
/// number of regions.
///
/// Rules (DESIGN.md, "Geofence semantics"):
/// - A fix without time, with an invalid coordinate, or with an accuracy
///   worse than ``GeofenceSettings/maxAccuracy`` changes nothing (counted).
/// - `enter` after `confirm` consecutive fixes inside; the first fix of a
///   device counts as an entry unless `initialEnter` is off, when it sets
///   the state silently.
/// - `exit` when distance − accuracy > radius + hysteresis (for an area:
///   distance to the boundary − accuracy > hysteresis) for `exitConfirm`
///   consecutive fixes; a fix inside or in the band between resets the count.
/// - `dwell` once per stay, at the first fix at least `dwell` seconds after
///   the entry.
/// - `cross` when the segment from the previous fix passes through a
///   region that the device was outside of and neither fix is inside,
///   stamped at the interpolated time of closest approach.
/// Transitions of one fix are ordered by time, then cross, exit, enter,
/// dwell, then region key.
public struct TransitionDetector: Sendable {
    /// The regions by key (`nil` where removed).
    public private(set) var regions: [Region?]
    /// The settings in force.
    public let settings: GeofenceSettings
    /// Counts of accepted and ignored fixes.
    public private(set) var statistics = DetectorStatistics()
    private var index: SpatialGrid
    private var hysteresis: [Double]
    private var devices: [String: DeviceState] = [:]

    /// A detector over `regions` (keys are their positions).
    public init(regions: [Region], settings: GeofenceSettings = GeofenceSettings()) {
        self.regions = regions
        self.settings = settings
        index = SpatialGrid(shapes: regions.map(\.shape))
        hysteresis = regions.map { settings.hysteresis(for: $0.shape) }
    }

    /// Adds a region (tasks change while a live feed runs); returns its key.
    public mutating func add(_ region: Region) -> Int {
        let key = regions.count
        regions.append(region)
        hysteresis.append(settings.hysteresis(for: region.shape))
        index.insert(region.shape, forKey: key)
        return key
    }

    /// Removes the region under `key`, forgetting every device's state in
    /// it without reporting transitions.
    public mutating func remove(key: Int) {
        guard key >= 0, key < regions.count, regions[key] != nil else { return }
        regions[key] = nil
        index.remove(key: key)
        for device in devices.keys { devices[device]!.memberships[key] = nil }
    }

    /// The keys of the regions `device` is currently inside, ascending.
    public func regionsInside(device: String?) -> [Int] {
        guard let state = devices[device ?? ""] else { return [] }
        return state.memberships.compactMap { key, membership in
            if case .inside = membership { return key }
            return nil
        }.sorted()
    }

    /// Evaluates one fix and returns the transitions it causes.
    public mutating func process(_ fix: Fix) -> [Transition] {
        guard let time = fix.time else {
            statistics.untimed += 1
            return []
        }
        guard fix.coordinate.isValid else {
            statistics.invalid += 1
            return []
        }
        let accuracy = fix.effectiveAccuracy ?? 0
        guard accuracy <= settings.maxAccuracy else {
            statistics.inaccurate += 1
            return []
        }
        let deviceKey = fix.device ?? ""
        var state = devices[deviceKey] ?? DeviceState()
        if let last = state.lastTime, time < last {
            statistics.outOfOrder += 1
            return []
        }
        statistics.accepted += 1
        let point = fix.coordinate
        var events: [Transition] = []
        func emit(_ kind: Transition.Kind, _ key: Int, at moment: Timestamp, distance: Double) {
            events.append(Transition(
                kind: kind, time: moment, regionKey: key, region: regions[key]!.id, device: fix.device,
                distance: distance))
        }

        let containing = index.regions(containing: point)
        if settings.reportsCross, let previous = state.lastPoint, let previousTime = state.lastTime {
            for (key, fraction) in crossings(from: previous, to: point, skipping: state, containing: containing) {
                let closest = interpolate(from: previous, to: point, fraction: fraction)
                emit(.cross, key, at: Self.interpolateTime(from: previousTime, to: time, fraction: fraction),
                     distance: regions[key]!.shape.reportedDistance(from: closest))
            }
        }

        // Regions containing the fix: count towards (or keep) an entry.
        for key in containing {
            switch state.memberships[key] {
            case nil where state.lastTime == nil && !settings.initialEnter:
                state.memberships[key] = .inside(since: time, dwellReported: false, exitCount: 0)
            case nil, .entering:
                var count = 1
                if case .entering(let seen) = state.memberships[key] { count = seen + 1 }
                if count >= settings.confirm {
                    state.memberships[key] = .inside(since: time, dwellReported: false, exitCount: 0)
                    emit(.enter, key, at: time, distance: regions[key]!.shape.reportedDistance(from: point))
                } else {
                    state.memberships[key] = .entering(count: count)
                }
            case .inside(let since, let dwellReported, _):
                state.memberships[key] = .inside(since: since, dwellReported: dwellReported, exitCount: 0)
            }
        }
        // Regions the device is in or entering but the fix is not inside.
        let containingSet = Set(containing)
        for (key, membership) in state.memberships where !containingSet.contains(key) {
            switch membership {
            case .entering:
                state.memberships[key] = nil
            case .inside(let since, let dwellReported, let exitCount):
                let shape = regions[key]!.shape
                if shape.excess(at: point) - accuracy > hysteresis[key] {
                    if exitCount + 1 >= settings.exitConfirm {
                        state.memberships[key] = nil
                        emit(.exit, key, at: time, distance: shape.reportedDistance(from: point))
                    } else {
                        state.memberships[key] = .inside(since: since, dwellReported: dwellReported, exitCount: exitCount + 1)
                    }
                } else {
                    state.memberships[key] = .inside(since: since, dwellReported: dwellReported, exitCount: 0)
                }
            }
        }
        if let dwell = settings.dwell {
            for (key, membership) in state.memberships {
                guard case .inside(let since, false, let exitCount) = membership,
                    Double(time.nanoseconds - since.nanoseconds) >= dwell * 1e9
                else { continue }
                state.memberships[key] = .inside(since: since, dwellReported: true, exitCount: exitCount)
                emit(.dwell, key, at: time, distance: regions[key]!.shape.reportedDistance(from: point))
            }
        }
        state.lastTime = time
        state.lastPoint = point
        devices[deviceKey] = state
        return events.sorted { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.kind != b.kind { return a.kind.order < b.kind.order }
            return a.regionKey < b.regionKey
        }
    }

    /// The instant `fraction` of the way from `start` to `end`, with
    /// millisecond digits when it falls between whole seconds.
    static func interpolateTime(from start: Timestamp, to end: Timestamp, fraction: Double) -> Timestamp {
        let nanoseconds = start.nanoseconds + Int64((Double(end.nanoseconds - start.nanoseconds) * fraction).rounded())
        let whole = nanoseconds % 1_000_000_000 == 0
        return Timestamp(nanoseconds: nanoseconds, fractionDigits: whole ? start.fractionDigits : max(start.fractionDigits, 3))
    }

    /// Regions the segment passes through that the device was outside of
    /// and that contain neither end, with the fraction of closest approach.
    private func crossings(
        from start: Coordinate, to end: Coordinate, skipping state: DeviceState, containing: [Int]
    ) -> [(Int, Double)] {
        // The short way round: a box from west to east that may wrap.
        let eastward = Geodesy.wrapLongitude(end.longitude - start.longitude) >= 0
        let box = BoundingBox(
            south: min(start.latitude, end.latitude), north: max(start.latitude, end.latitude),
            west: eastward ? start.longitude : end.longitude, east: eastward ? end.longitude : start.longitude)
        var found: [(Int, Double)] = []
        index.forEachCandidate(intersecting: box) { key in
            guard state.memberships[key] == nil, !containing.contains(key) else { return }
            let shape = regions[key]!.shape
            guard !shape.contains(start), let fraction = shape.crossing(from: start, to: end) else { return }
            found.append((key, fraction))
        }
        return found
    }
}

/// One device's position in the state machine.
struct DeviceState: Sendable {
    var lastTime: Timestamp?
    var lastPoint: Coordinate?
    var memberships: [Int: Membership] = [:]
}

/// A device's state for one region (absent = outside).
enum Membership: Hashable, Sendable {
    /// Inside for `count` consecutive fixes, not yet entered.
    case entering(count: Int)
    /// Entered at `since`; `exitCount` consecutive clearly-outside fixes.
    case inside(since: Timestamp, dwellReported: Bool, exitCount: Int)
}

extension Transition.Kind {
    /// The order of kinds at the same instant.
    var order: Int {
        switch self {
        case .cross: return 0
        case .exit: return 1
        case .enter: return 2
        case .dwell: return 3
        }
    }
}
