import GeoCore

/// The per-device geofence state machine: fixes in, transitions out.
///
/// Feed it each device's fixes in time order (``process(_:into:)``); it
/// appends the transitions the fix causes, as actions for the caller to
/// perform, and says what it did with the fix (``FixDisposition``).
/// State is kept per (device, region) only for regions a device is inside
/// or entering, so memory grows with what devices are near, not with the
/// number of regions.
///
/// Rules (DESIGN.md, "Geofence semantics"):
/// - A fix with an invalid coordinate, with an accuracy worse than
///   ``GeofenceSettings/maxAccuracy``, or older than its device's last fix
///   changes nothing (counted, and returned as the fix's disposition).
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
    /// The regions by key (a removed one keeps its key, out of the index).
    public private(set) var regions: RegionTable
    /// The settings in force.
    public private(set) var settings: GeofenceSettings
    /// Counts of accepted and ignored fixes.
    public private(set) var statistics = DetectorStatistics()
    private var index: SpatialGrid
    /// Per-device state, in place.
    private var devices = DeviceTable(empty: DeviceState())
    private var containingBuffer: [Int] = []

    /// A detector over `regions` (keys are their positions).
    public init(regions: [Region], settings: GeofenceSettings = GeofenceSettings()) {
        self.init(regions: RegionTable(regions), settings: settings)
    }

    /// A detector over `regions` (keys are their positions), kept as they are.
    public init(regions: RegionTable, settings: GeofenceSettings = GeofenceSettings()) {
        self.regions = regions
        self.settings = settings
        index = SpatialGrid(shapes: regions.shapes)
    }

    /// A detector over the same regions, index and settings that has seen
    /// no device yet: one per worker thread or shard, sharing the index.
    public func emptied() -> TransitionDetector {
        var detector = self
        detector.statistics = DetectorStatistics()
        detector.devices = DeviceTable(empty: DeviceState())
        detector.containingBuffer = []
        return detector
    }

    /// A detector over the same regions and index with other `settings`,
    /// that has seen no device yet: one per setting of a sweep, sharing the
    /// index (the settings are read as fixes come, nothing is built from
    /// them).
    public func emptied(settings: GeofenceSettings) -> TransitionDetector {
        var detector = emptied()
        detector.settings = settings
        return detector
    }

    /// Adds a region (tasks change while a live feed runs); returns its key.
    public mutating func add(_ region: Region) -> Int {
        let key = regions.count
        regions.append(region)
        index.insert(region.shape, forKey: key)
        return key
    }

    /// Removes the region under `key`, forgetting every device's state in
    /// it without reporting transitions.
    public mutating func remove(key: Int) {
        guard index.remove(key: key) else { return }
        for (_, slot) in devices.byName { devices[slot].memberships[key] = nil }
    }

    /// The number of devices whose fixes were evaluated (and that are
    /// present: see ``remove(device:)``).
    public var deviceCount: Int { devices.count }

    /// Takes `device`'s state out (`""` for fixes without a device); `nil`
    /// if the detector has not seen the device. Feeding the device again
    /// without ``restore(_:device:)`` starts it afresh.
    package mutating func remove(device: DeviceID) -> DeviceState? { devices.remove(device) }

    /// Puts back what ``remove(device:)`` took.
    package mutating func restore(_ state: DeviceState, device: DeviceID) {
        devices[devices.slot(of: device).slot] = state
    }

    /// The keys of the regions `device` is currently inside, ascending.
    public func regionsInside(device: String?) -> [Int] {
        guard let slot = devices.existingSlot(of: device ?? "") else { return [] }
        return devices[slot].memberships.compactMap { key, membership in
            if case .inside = membership { return key }
            return nil
        }
    }

    /// Evaluates one fix and returns the transitions it causes (the
    /// allocating form of ``process(_:into:)``, for tests and examples).
    public mutating func process(_ fix: TimedFix) -> [Transition] {
        var transitions: [Transition] = []
        _ = process(fix, into: &transitions)
        return transitions
    }

    /// A region's membership once a fix at `time` inside it is counted
    /// (the device's first fix if `firstFix`), and whether that is an entry
    /// to report.
    private static func count(
        _ membership: Membership?, at time: Timestamp, firstFix: Bool, settings: GeofenceSettings
    ) -> (Membership, enters: Bool) {
        switch membership {
        case nil where firstFix && !settings.initialEnter:
            return (.inside(since: time, dwellReported: false, exitCount: 0), false)
        case nil, .entering:
            var count = 1
            if case .entering(let seen) = membership { count = seen + 1 }
            guard count >= settings.confirm else { return (.entering(count: count), false) }
            return (.inside(since: time, dwellReported: false, exitCount: 0), true)
        case .inside(let since, let dwellReported, _):
            return (.inside(since: since, dwellReported: dwellReported, exitCount: 0), false)
        }
    }

    /// Evaluates one fix: appends the transitions it causes to
    /// `transitions` (ordered by time, then cross, exit, enter, dwell, then
    /// region key) and returns whether it was evaluated or why not.
    public mutating func process(_ fix: TimedFix, into transitions: inout [Transition]) -> FixDisposition {
        let time = fix.time
        guard fix.coordinate.isValid else {
            statistics.invalid += 1
            return .ignored(.invalid)
        }
        guard !isTooInaccurate(fix.fix) else {
            statistics.inaccurate += 1
            return .ignored(.inaccurate)
        }
        let accuracy = fix.effectiveAccuracy ?? 0
        let slot = devices.slot(of: fix.deviceID).slot
        if let last = devices[slot].lastTime, time < last {
            statistics.outOfOrder += 1
            return .ignored(.outOfOrder)
        }
        // Moved out so that its dictionary is uniquely referenced while it
        // changes, and put back below.
        var state = DeviceState()
        devices.exchange(slot, with: &state)
        statistics.accepted += 1
        let point = fix.coordinate
        let regions = self.regions
        let firstNew = transitions.count
        func emit(_ kind: Transition.Kind, _ key: Int, at moment: Timestamp, distance: Double) {
            transitions.append(
                Transition(
                    kind: kind, time: moment, regionKey: key, region: regions.name(at: key), device: fix.device,
                    distance: distance))
        }

        // The regions containing the fix, in the index's order, in a buffer
        // kept between fixes; and the regions the segment from the previous
        // fix may cross, found in the same walk of the index.
        var containing: [Int] = []
        swap(&containing, &containingBuffer)
        containing.removeAll(keepingCapacity: true)
        defer { swap(&containing, &containingBuffer) }
        if settings.reportsCross, let previous = state.lastPoint, let previousTime = state.lastTime {
            // `nil` until a crossing, as `changes` below: an empty array
            // left at the end is released, a call a fix.
            var found: [(Int, Double)]?
            let (box, reach) = Self.segmentBox(from: previous, to: point)
            index.forEachRegion(
                containing: point, segmentBox: box, within: reach, inside: { containing.append($0) },
                near: { key in
                    guard state.memberships[key] == nil else { return }
                    let shape = regions.shape(at: key)
                    // The crossing first: most segments near a region miss it,
                    // and then whether it held the previous fix is not asked.
                    guard let fraction = shape.crossing(from: previous, to: point), !shape.contains(previous) else { return }
                    if found == nil { found = [(key, fraction)] } else { found!.append((key, fraction)) }
                })
            if let found {
                for (key, fraction) in found {
                    let closest = interpolate(from: previous, to: point, fraction: fraction)
                    emit(
                        .cross, key, at: Self.interpolateTime(from: previousTime, to: time, fraction: fraction),
                        distance: regions.shape(at: key).reportedDistance(from: closest))
                }
            }
        } else {
            index.forEachRegion(containing: point) { containing.append($0) }
        }

        // Regions containing the fix: count towards (or keep) an entry.
        // Past a few, their keys are sorted and walked alongside the
        // memberships (which ascend) here and below, rather than searched
        // for one by one: a device inside 100 overlapping regions (1M
        // regions in a city) made that 10 000 comparisons a fix, a third of
        // the run, and the searches of the memberships another tenth.
        let (firstFix, settings) = (state.lastTime == nil, self.settings)
        func emitEnter(_ key: Int) {
            emit(.enter, key, at: time, distance: regions.shape(at: key).reportedDistance(from: point))
        }
        let walksContaining = containing.count > 8
        if walksContaining {
            containing.sort()
            // The entries reported after the walk: a closure that reported
            // them would hold a copy of the regions' table, retaining its
            // arrays at every fix.
            var entered: [Int] = []
            state.memberships.update(ascending: containing) { key, membership in
                let (counted, enters) = Self.count(membership, at: time, firstFix: firstFix, settings: settings)
                if enters { entered.append(key) }
                return counted
            }
            for key in entered { emitEnter(key) }
        } else {
            for key in containing {
                let membership = state.memberships[key]
                let (counted, enters) = Self.count(membership, at: time, firstFix: firstFix, settings: settings)
                if counted != membership { state.memberships[key] = counted }
                if enters { emitEnter(key) }
            }
        }
        // Regions the device is in or entering but the fix is not inside.
        // Changes are applied after the loop, so that the dictionary is not
        // copied for being changed while it is iterated.
        var changes: [(key: Int, membership: Membership?)]?
        func change(_ key: Int, to membership: Membership?) {
            if changes == nil { changes = [(key, membership)] } else { changes!.append((key, membership)) }
        }
        var nextContaining = 0
        for (key, membership) in state.memberships {
            if walksContaining {
                while nextContaining < containing.count, containing[nextContaining] < key { nextContaining += 1 }
                if nextContaining < containing.count, containing[nextContaining] == key { continue }
            } else if containing.contains(key) {
                continue
            }
            switch membership {
            case .entering:
                change(key, to: nil)
            case .inside(let since, let dwellReported, let exitCount):
                let shape = regions.shape(at: key)
                if shape.isBeyond(point, accuracy: accuracy, hysteresis: settings.hysteresis(for: shape)) {
                    if exitCount + 1 >= settings.exitConfirm {
                        change(key, to: nil)
                        emit(.exit, key, at: time, distance: shape.reportedDistance(from: point))
                    } else {
                        change(key, to: .inside(since: since, dwellReported: dwellReported, exitCount: exitCount + 1))
                    }
                } else if exitCount != 0 {
                    change(key, to: .inside(since: since, dwellReported: dwellReported, exitCount: 0))
                }
            }
        }
        if let dwell = settings.dwell {
            for (key, stored) in state.memberships {
                let changed = changes?.lastIndex { $0.key == key }
                let membership = changed.map { changes![$0].membership } ?? stored
                guard case .inside(let since, false, let exitCount) = membership,
                    // In Double: two fixes up to 584 years apart (Int64's whole range) never trap.
                    Double(time.nanoseconds) - Double(since.nanoseconds) >= dwell * 1e9
                else { continue }
                let reported = Membership.inside(since: since, dwellReported: true, exitCount: exitCount)
                if let changed { changes![changed].membership = reported } else { change(key, to: reported) }
                emit(.dwell, key, at: time, distance: regions.shape(at: key).reportedDistance(from: point))
            }
        }
        if let changes { for change in changes { state.memberships[change.key] = change.membership } }
        state.lastTime = time
        state.lastPoint = point
        devices.exchange(slot, with: &state)
        if transitions.count - firstNew >= 2 {
            // Sorted where they lie: sorting `transitions[firstNew...]`
            // copied the slice into an array of its own, the array still
            // holding its storage (with 100 000 devices, whose first fixes
            // often enter several regions at once, 25 000 copies).
            transitions.withUnsafeMutableBufferPointer { all in
                var new = UnsafeMutableBufferPointer(rebasing: all[firstNew...])
                new.sort { a, b in
                    if a.time != b.time { return a.time < b.time }
                    if a.kind != b.kind { return a.kind.order < b.kind.order }
                    return a.regionKey < b.regionKey
                }
            }
        }
        return .evaluated
    }

    /// The instant `fraction` of the way from `start` to `end`, with
    /// millisecond digits when it falls between whole seconds.
    /// Worked in Double when the span does not fit Int64 (fixes more than
    /// 292 years apart), so no time arithmetic traps.
    static func interpolateTime(from start: Timestamp, to end: Timestamp, fraction: Double) -> Timestamp {
        let nanoseconds: Int64
        let (span, overflow) = end.nanoseconds.subtractingReportingOverflow(start.nanoseconds)
        if !overflow {
            nanoseconds = start.nanoseconds + Int64((Double(span) * fraction).rounded())
        } else {
            let exact = Double(start.nanoseconds) + (Double(end.nanoseconds) - Double(start.nanoseconds)) * fraction
            // Clamped inside the segment, and below 2^63, which Double rounds Int64.max up to.
            nanoseconds = exact >= 9.2e18 ? end.nanoseconds : max(start.nanoseconds, min(end.nanoseconds, Int64(exact)))
        }
        let whole = nanoseconds % 1_000_000_000 == 0
        return Timestamp(nanoseconds: nanoseconds, fractionDigits: whole ? start.fractionDigits : max(start.fractionDigits, 3))
    }

    /// The box of the segment from `start` to `end` (the short way round
    /// in longitude, so it may wrap) and a bound on how far any point of
    /// the segment lies from `end`, in metres: the crossing query.
    private static func segmentBox(from start: Coordinate, to end: Coordinate) -> (BoundingBox, Double) {
        let eastward = Geodesy.wrapLongitude(end.longitude - start.longitude) >= 0
        let box = BoundingBox(
            south: min(start.latitude, end.latitude), north: max(start.latitude, end.latitude),
            west: eastward ? start.longitude : end.longitude, east: eastward ? end.longitude : start.longitude)
        // No segment point is farther from its end than this: along the
        // meridian, then along a parallel (cos φ ≤ 1).
        let dLon = abs(end.longitude - start.longitude)
        let reach = (abs(end.latitude - start.latitude) + min(dLon, 360 - dLon)) * Geodesy.metresPerDegree
        return (box, reach)
    }
}

/// One device's position in the state machine: its last evaluated fix and
/// the regions it is inside or entering.
package struct DeviceState: Sendable {
    var lastTime: Timestamp?
    var lastPoint: Coordinate?
    var memberships = MembershipTable()
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

extension TransitionDetector {
    /// The `count` regions nearest to `point` by distance to their fence
    /// (0 when inside), nearest first, ties by key, among those whose key
    /// passes `isIncluded` — what a platform that monitors a limited number
    /// of regions registers.
    ///
    /// Searches boxes of growing size in the index: every region within
    /// `r` metres of the point has a candidate box that meets the box
    /// around the point's r-cap, so once `count` of them lie within `r` the
    /// answer is exact (tested against sorting every region).
    public func nearestRegions(
        to point: Coordinate, count: Int, where isIncluded: (Int) -> Bool = { _ in true }
    ) -> [(key: Int, distance: Double)] {
        guard count > 0, point.isValid else { return [] }
        var radius = 1_000.0
        while true {
            let wholeEarth = radius >= Double.pi * Geodesy.earthRadius
            let box =
                wholeEarth
                ? BoundingBox(south: -90, north: 90, west: -180, east: 180) : BoundingBox.around(point, radius: radius)
            var found: [(key: Int, distance: Double)] = []
            index.forEachCandidate(intersecting: box) { key in
                guard isIncluded(key) else { return }
                let distance = max(0, regions.shape(at: key).excess(at: point))
                if wholeEarth || distance <= radius { found.append((key, distance)) }
            }
            if found.count >= count || wholeEarth {
                found.sort { ($0.distance, $0.key) < ($1.distance, $1.key) }
                return Array(found.prefix(count))
            }
            radius *= 4
        }
    }

    /// The keys of the regions that contain `fix` and that its device is
    /// not inside: what a fix the accuracy gate turned away would have
    /// entered. Ascending.
    public func regionsUnentered(at fix: Fix) -> [Int] {
        guard fix.coordinate.isValid else { return [] }
        let state = devices.existingSlot(of: fix.deviceID).map { devices[$0] }
        return index.regions(containing: fix.coordinate).filter { state?.memberships[$0] == nil }
    }

    /// Whether the accuracy gate turns `fix` away (its accuracy, from the
    /// source or HDOP × 5 m, is worse than ``GeofenceSettings/maxAccuracy``).
    public func isTooInaccurate(_ fix: Fix) -> Bool {
        (fix.effectiveAccuracy ?? 0) > settings.maxAccuracy
    }
}
