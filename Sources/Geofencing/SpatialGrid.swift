import GeoCore

/// A uniform latitude/longitude grid over region bounding boxes: the fast
/// ``RegionIndex``.
///
/// **Layout.** Each level of the grid is a slice of two flat arrays in CSR
/// form: `offsets[cell]..<offsets[cell + 1]` is the range of `slots`
/// holding the internal ids of the regions whose bounding box touches that
/// cell. There are no per-cell objects. A region is stored in *every* cell
/// its box touches, so a query visits exactly one cell per level. Per
/// region, a 40-byte ``CandidateRecord`` holds the prefilter box and the
/// haversine constants; records are renumbered in cell order at each
/// rebuild, so the candidates of a cell lie close together in memory.
///
/// **Levels.** The level-0 cell size comes from the regions: the larger of
/// the median box height / 2, the 90th percentile / 4, and the size that
/// gives about six cells per region over the covered area (for small sets
/// up to 65 536 cells, whose offsets stay in cache). A region whose box is more than four cells tall or
/// wide goes to a coarser level (cells ×4 per level), so 1 m and 50 km
/// regions share an index without either replicating into thousands of
/// cells or flooding small cells. Usually there is a single level.
///
/// **Query.** Per level: one cell. A sparse cell: per candidate a
/// two-compare lat/lon prefilter, then the haversine test without
/// `asin`/`sqrt` (h ≤ sin²(r / 2R), with small-angle sines). A dense cell:
/// a branch-free scan with certain upper and lower bounds on h. Either way
/// values within a rounding band around the threshold are decided by
/// ``Geodesy/distance(_:_:)`` itself, so the grid answers exactly what
/// ``BruteForceIndex`` answers.
///
/// **Antimeridian and poles.** The grid covers the regions' latitude range
/// and the shortest longitude arc that holds every box: its origin is put at
/// the end of the widest empty longitude gap, so a cluster around ±180° is a
/// compact grid. Boxes that wrap are split into two column ranges; caps over
/// a pole span all columns.
///
/// **Changes.** `insert` appends a record and puts it on a small overflow
/// list that every query scans (with the same prefilter); `remove` marks
/// the record dead (no prefilter passes it), leaving stale cell entries
/// that cost one compare each. When the overflow exceeds max(64, n/8) or
/// the stale entries max(64, n/2), the grid is rebuilt in O(n + entries),
/// so insert and remove are amortized O(replication).
///
/// **Complexity.** Build O(n · replication); query O(levels + candidates in
/// the cell + overflow). Memory: 40 (record) + 4 + 4 (key maps) + 8
/// (radius) bytes per region, 4 bytes per (region, cell) pair, 4 bytes per
/// cell.
public struct SpatialGrid: RegionIndex {
    /// Candidate records by internal id; a removed one keeps its place,
    /// marked dead, until the next rebuild.
    @usableFromInline var records: [CandidateRecord] = []
    /// The caller's key of each internal id.
    @usableFromInline var keyOf: [UInt32] = []
    /// The internal id of each key (`absent` where none).
    var internalOf: [UInt32] = []
    /// Circle radii by internal id (for the exact fallback).
    @usableFromInline var radii: [Double] = []
    /// Area shapes by internal id.
    @usableFromInline var areas: [UInt32: Area] = [:]
    @usableFromInline var frame = GridFrame.empty
    /// Per level: where its offsets start and its cell geometry.
    @usableFromInline var levels: [GridLevel] = []
    /// All levels' CSR offsets, level after level (cells + 1 entries each).
    @usableFromInline var offsets: [UInt32] = []
    /// All levels' cell entries (internal ids), ascending within a cell.
    @usableFromInline var slots: [UInt32] = []
    /// Internal ids added since the last rebuild; scanned by every query.
    @usableFromInline var overflow: [UInt32] = []
    var overflowPosition: [UInt32: Int] = [:]
    /// Live internal ids in the grid levels.
    var gridCount = 0
    /// Removed internal ids whose cell entries remain until the next rebuild.
    var staleCount = 0

    /// The `internalOf` value of a key without a region.
    static let absent = UInt32.max

    /// The number of regions in the index.
    public var count: Int { gridCount + overflow.count }

    /// An empty grid.
    public init() {}

    /// A grid holding `shapes[i]` under key `i`, built in one pass.
    public init(shapes: [Shape]) { self.init(shapes: shapes[...]) }

    /// A grid holding the `i`-th shape of `shapes` under key `i`, built in
    /// one pass (``RegionTable/shapes`` reads each shape as it goes).
    public init(shapes: some Collection<Shape>) {
        records.reserveCapacity(shapes.count)
        radii.reserveCapacity(shapes.count)
        keyOf.reserveCapacity(shapes.count)
        internalOf.reserveCapacity(shapes.count)
        for (key, shape) in shapes.enumerated() {
            append(shape, forKey: key)
            internalOf.append(UInt32(key))
        }
        gridCount = shapes.count
        rebuild()
    }

    /// Calls `body` once with the key of every region containing `point`.
    ///
    /// A cell with fewer than eight candidates is tested one by one:
    /// prefilter, then ``exactContains(_:_:cosPoint:)``. A fuller cell goes
    /// to ``scan(_:_:cosPoint:_:)``, which is branch-free in the common case.
    @inlinable
    public func forEachRegion(containing point: Coordinate, _ body: (Int) -> Void) {
        let lat = point.latitude
        let lon = point.longitude
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return }
        var cosPoint = Double.nan
        let y = lat - frame.latMin
        var x = lon - frame.lonOrigin
        if x < 0 { x += 360 }
        if y >= 0, lat <= frame.latMax, x <= frame.xSpan {
            offsets.withUnsafeBufferPointer { offsets in
                slots.withUnsafeBufferPointer { slots in
                    records.withUnsafeBufferPointer { records in
                        for level in levels {
                            let cell = level.offsetBase + level.cell(y: y, x: x)
                            let lower = Int(offsets[cell])
                            let upper = Int(offsets[cell + 1])
                            if upper - lower < 8 {
                                for i in lower..<upper {
                                    let id = Int(slots[i])
                                    let record = records[id]
                                    guard abs(lat - record.latitude) <= Double(record.halfLatitude) else { continue }
                                    let dLon = abs(lon - record.longitude)
                                    guard min(dLon, 360 - dLon) <= Double(record.halfLongitude) else { continue }
                                    if exactContains(id, point, cosPoint: &cosPoint) { body(Int(keyOf[id])) }
                                }
                            } else {
                                scan(slots, lower..<upper, point: point, cosPoint: &cosPoint, body)
                            }
                        }
                    }
                }
            }
        }
        if !overflow.isEmpty {
            overflow.withUnsafeBufferPointer { scan($0, 0..<$0.count, point: point, cosPoint: &cosPoint, body) }
        }
    }

    /// The two-compare lat/lon box test of one candidate.
    @inlinable @inline(__always)
    func passesPrefilter(_ id: Int, _ point: Coordinate) -> Bool {
        let record = records[id]
        guard abs(point.latitude - record.latitude) <= Double(record.halfLatitude) else { return false }
        let dLon = abs(point.longitude - record.longitude)
        return min(dLon, 360 - dLon) <= Double(record.halfLongitude)
    }

    /// The exact test of a candidate that passed the prefilter: the
    /// haversine h with small-angle sines against sin²(r / 2R); within the
    /// ``decisionBand(threshold:halfLatitudeAngle:)``, and for areas and removed regions,
    /// ``slowContains(_:_:)``. `cosPoint` is the point's latitude cosine,
    /// computed on first use (NaN until then).
    @usableFromInline
    func exactContains(_ id: Int, _ point: Coordinate, cosPoint: inout Double) -> Bool {
        let record = records[id]
        guard record.threshold >= 0 else { return slowContains(id, point) }
        if cosPoint.isNaN { cosPoint = latitudeCosine(degrees: point.latitude) }
        let dLat = point.latitude - record.latitude
        let rawLon = abs(point.longitude - record.longitude)
        let dLon = min(rawLon, 360 - rawLon)
        let s1 = smallAngleSine(dLat * (.pi / 360))
        let s2 = smallAngleSine(dLon * (.pi / 360))
        let h = s1 * s1 + record.cosLatitude * cosPoint * (s2 * s2)
        let band = Self.decisionBand(threshold: record.threshold, halfLatitudeAngle: dLat * (.pi / 360))
        if h < record.threshold - band { return true }
        if h > record.threshold + band { return false }
        return slowContains(id, point)
    }

    /// How far from the threshold an h must be for this index's decision
    /// to be certain to match ``Geodesy/distance(_:_:)``: 1e-9 of the
    /// threshold for rounding in either computation, plus the reference's
    /// own error in Δφ (it converts both latitudes to radians before
    /// subtracting, an absolute error up to ~4e-16 rad, which matters for
    /// regions of a few metres: h ∝ Δφ²).
    @inlinable @inline(__always)
    static func decisionBand(threshold: Double, halfLatitudeAngle: Double) -> Double {
        threshold * 1e-9 + abs(halfLatitudeAngle) * 2e-15 + 1e-30
    }

    /// Whether a circle of `radius` whose haversine h from a point is at
    /// least `lower` may come within `metres` of it: sin²(d / 2R) ≤ (d / 2R)²
    /// for d = the radius + metres, with a margin for rounding.
    @inlinable @inline(__always)
    static func mayReach(lower: Double, radius: Double, metres: Double) -> Bool {
        let reach = (radius + metres) / (2 * Geodesy.earthRadius)
        return lower <= reach * reach * (1 + 1e-6) + 1e-30
    }

    /// The reference decision for one candidate: nothing for a removed
    /// region, the area's own test, or ``Geodesy/distance(_:_:)`` against
    /// the radius — exactly what ``BruteForceIndex`` computes.
    @usableFromInline
    func slowContains(_ id: Int, _ point: Coordinate) -> Bool {
        let record = records[id]
        guard record.isLive else { return false }
        if record.threshold < 0 { return areas[UInt32(id)]!.contains(point) }
        let centre = Coordinate(latitude: record.latitude, longitude: record.longitude)
        return Geodesy.distance(centre, point) <= radii[id]
    }

    /// Tests the candidates `ids[range]` and reports the hits, branch-free
    /// in the common case: with sin x ≈ x the computed h bounds the true h
    /// from above (sin²x ≤ x²) and, scaled by 1 − x²/3, from below, so most
    /// candidates are decided inside or outside for certain; hits go to a
    /// small buffer and `body` is called after each chunk of 64. The rest
    /// (areas, removed regions, values within the decision band) take
    /// ``slowContains(_:_:)``.
    @inlinable @inline(never)
    func scan(
        _ ids: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, point: Coordinate, cosPoint: inout Double,
        _ body: (Int) -> Void
    ) {
        let lat = point.latitude
        let lon = point.longitude
        if cosPoint.isNaN { cosPoint = latitudeCosine(degrees: lat) }
        let cosP = cosPoint
        let chunk = 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { found in
            records.withUnsafeBufferPointer { records in
                var i = range.lowerBound
                while i < range.upperBound {
                    let stop = min(range.upperBound, i + chunk)
                    var hits = 0
                    while i < stop {
                        let id = Int(ids[i])
                        let record = records[id]
                        let bounds = record.haversineBounds(latitude: lat, longitude: lon, cosPoint: cosP)
                        let threshold = record.threshold
                        let inside = bounds.upper < threshold - bounds.band
                        let outside = bounds.lower > threshold + bounds.band
                        found[hits] = UInt32(truncatingIfNeeded: id)
                        hits &+= inside ? 1 : 0
                        if threshold < 0 || !(inside || outside) {
                            if passesPrefilter(id, point), slowContains(id, point) {
                                found[hits] = UInt32(truncatingIfNeeded: id)
                                hits &+= 1
                            }
                        }
                        i &+= 1
                    }
                    for j in 0..<hits { body(Int(keyOf[Int(found[j])])) }
                }
            }
        }
    }

    /// Calls `body` once with the key of every region whose bounding box
    /// intersects `box` (possibly a few more; never fewer), in no
    /// particular order.
    ///
    /// Candidates are tested against their prefilter box (the record's
    /// rounded-up half sizes), so no trigonometry runs per candidate. When
    /// the query touches one cell per level (a short segment, the usual
    /// case) nothing is allocated; otherwise the ids are collected and
    /// de-duplicated, since a region is stored in every cell its box touches.
    public func forEachCandidate(intersecting box: BoundingBox, _ body: (Int) -> Void) {
        let query = CandidateRecord(queryBox: box)
        forEachCandidate(query, accept: { records[$0].overlaps(query) }, body)
    }

    /// Calls `body` once with the key of every region whose bounding box
    /// may intersect `box` and whose fence may come within `metres` of
    /// `point` (possibly a few more; never fewer), in no particular order — the
    /// candidates for a segment inside `box` that ends at `point` and is at
    /// most `metres` long. Circles are tested with a lower bound of the
    /// haversine h (no trigonometry per candidate).
    public func forEachCandidate(
        intersecting box: BoundingBox, within metres: Double, of point: Coordinate, _ body: (Int) -> Void
    ) {
        let query = CandidateRecord(queryBox: box)
        let cosPoint = latitudeCosine(degrees: point.latitude)
        forEachCandidate(
            query,
            accept: { id in
                let record = records[id]
                // Areas (and removed regions): the box test alone. Circles: the
                // distance test alone, which is the stronger one for short reach.
                guard record.threshold >= 0 else { return record.overlaps(query) }
                let bounds = record.haversineBounds(
                    latitude: point.latitude, longitude: point.longitude, cosPoint: cosPoint)
                return Self.mayReach(lower: bounds.lower, radius: radii[id], metres: metres)
            }, body)
    }

    /// The cell walk of both candidate queries: the cells `query` touches
    /// on every level and the overflow list, each live id once.
    private func forEachCandidate(
        _ query: CandidateRecord, accept: (Int) -> Bool, _ body: (Int) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, levels.count)) { single in
            var singleCell = true
            for (number, level) in levels.enumerated() where singleCell {
                var cells = 0
                level.forEachCell(covering: query, frame: frame) { cell in
                    cells += 1
                    single[number] = level.offsetBase + cell
                }
                if cells == 0 { single[number] = -1 }
                singleCell = cells <= 1
            }
            do {
                if singleCell {
                    for number in levels.indices where single[number] >= 0 {
                        let base = single[number]
                        for slot in Int(offsets[base])..<Int(offsets[base + 1]) {
                            let id = Int(slots[slot])
                            if accept(id) { body(Int(keyOf[id])) }
                        }
                    }
                } else {
                    // Counted first, so that the ids take one allocation
                    // (on the stack when few), not an array's doublings.
                    var count = 0
                    for level in levels {
                        level.forEachCell(covering: query, frame: frame) { cell in
                            let base = level.offsetBase + cell
                            count += Int(offsets[base + 1] - offsets[base])
                        }
                    }
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { ids in
                        var filled = 0
                        for level in levels {
                            level.forEachCell(covering: query, frame: frame) { cell in
                                let base = level.offsetBase + cell
                                for slot in Int(offsets[base])..<Int(offsets[base + 1]) {
                                    ids[filled] = slots[slot]
                                    filled += 1
                                }
                            }
                        }
                        var sorted = ids
                        sorted.sort()
                        var previous = UInt32.max
                        for id in sorted where id != previous {
                            previous = id
                            if accept(Int(id)) { body(Int(keyOf[Int(id)])) }
                        }
                    }
                }
                for id in overflow where accept(Int(id)) { body(Int(keyOf[Int(id)])) }
            }
        }
    }

    /// The shape stored under `key`, if any.
    public func shape(forKey key: Int) -> Shape? {
        guard key >= 0, key < internalOf.count, internalOf[key] != Self.absent else { return nil }
        let id = internalOf[key]
        if let area = areas[id] { return .area(area) }
        let record = records[Int(id)]
        return .circle(
            centre: Coordinate(latitude: record.latitude, longitude: record.longitude), radius: radii[Int(id)])
    }

    /// Bytes held by the index's arrays (capacity, not count), excluding
    /// area vertex storage: the figure behind "bytes per region".
    public var memoryFootprint: Int {
        records.capacity * MemoryLayout<CandidateRecord>.stride + keyOf.capacity * 4 + internalOf.capacity * 4
            + radii.capacity * 8 + overflow.capacity * 4 + offsets.capacity * 4 + slots.capacity * 4
    }

    /// A summary of the layout for `bench` and debugging: per level the
    /// cell size in metres, rows × columns and entries.
    public var layoutDescription: String {
        levels.map { level in
            let metres = Int((level.cellLatitude * Geodesy.metresPerDegree).rounded())
            let base = level.offsetBase
            let entries = Int(offsets[base + level.cellCount]) - Int(offsets[base])
            return "\(metres) m cells \(level.rows)×\(level.columns), \(entries) entries"
        }.joined(separator: "; ")
    }
}

extension CandidateRecord {
    /// Bounds on the haversine h of the point (`latitude`, `longitude`)
    /// from this circle's centre, without trigonometry: `upper` with
    /// sin x ≈ x (sin²x ≤ x²), `lower` that scaled by 1 − x²/3, and the
    /// ``SpatialGrid/decisionBand(threshold:halfLatitudeAngle:)`` around
    /// the threshold. `cosPoint` is the point's latitude cosine.
    @inlinable @inline(__always)
    func haversineBounds(
        latitude lat: Double, longitude lon: Double, cosPoint: Double
    ) -> (
        upper: Double, lower: Double, band: Double
    ) {
        let dLat = lat - latitude
        let rawLon = abs(lon - longitude)
        let h = smallAngleHaversine(dLat: dLat, dLon: min(rawLon, 360 - rawLon), cosines: cosLatitude * cosPoint)
        return (
            h.upper, h.lower,
            SpatialGrid.decisionBand(threshold: threshold, halfLatitudeAngle: dLat * (.pi / 360))
        )
    }
}

/// The prefilter box and haversine constants of one region (40 bytes).
///
/// For a circle, (`latitude`, `longitude`) is the centre, `cosLatitude` its
/// cosine and `threshold` = sin²(r / 2R); the half extents (rounded up to
/// `Float`) are the largest distances from the centre to the edges of its
/// bounding box. For an area, the centre is the box's middle and
/// `threshold` is −1. A removed region has `halfLatitude` and `threshold` −1.
@usableFromInline struct CandidateRecord: Sendable {
    @usableFromInline var latitude: Double
    @usableFromInline var longitude: Double
    @usableFromInline var cosLatitude: Double
    @usableFromInline var threshold: Double
    @usableFromInline var halfLatitude: Float
    @usableFromInline var halfLongitude: Float

    /// A record centred on `box`, for an area (whose `threshold` is -1).
    init(box: BoundingBox, threshold: Double) {
        self.init(queryBox: box)
        cosLatitude = cosine(degrees: latitude)
        self.threshold = threshold
    }

    /// A record of a query box, for ``overlaps(_:)`` only (no haversine
    /// constants).
    init(queryBox box: BoundingBox) {
        latitude = (box.south + box.north) / 2
        halfLatitude = Self.roundedUp((box.north - box.south) / 2)
        let width = box.longitudeWidth
        longitude = Geodesy.wrapLongitude(box.west + width / 2)
        halfLongitude = width >= 360 ? 180 : Self.roundedUp(width / 2)
        cosLatitude = 0
        threshold = -1
    }

    /// The record of a circle: centred on the circle's centre.
    init(circle: Circle) {
        let box = Shape.circle(circle).boundingBox
        latitude = circle.centre.latitude
        longitude = circle.centre.longitude
        halfLatitude = Self.roundedUp(max(latitude - box.south, box.north - latitude))
        if box.longitudeWidth >= 360 {
            halfLongitude = 180
        } else {
            let west = Geodesy.wrapLongitude(longitude - box.west)
            let east = Geodesy.wrapLongitude(box.east - longitude)
            halfLongitude = Self.roundedUp(max(abs(west), abs(east)))
        }
        cosLatitude = cosine(degrees: latitude)
        let halfAngle = circle.radius / (2 * Geodesy.earthRadius)
        if halfAngle >= .pi / 2 {
            threshold = 2  // the circle holds the whole sphere
        } else {
            let s = sine(radians: halfAngle)
            threshold = s * s
        }
    }

    /// Whether the region is still in the index.
    @usableFromInline var isLive: Bool { halfLatitude >= 0 }

    /// Whether this live record's box and `other`'s share a point, the
    /// short way round in longitude, with a hair of margin for rounding.
    @inline(__always)
    func overlaps(_ other: CandidateRecord) -> Bool {
        guard isLive else { return false }
        let margin = 1e-9
        guard abs(latitude - other.latitude) <= Double(halfLatitude) + Double(other.halfLatitude) + margin else {
            return false
        }
        let dLon = abs(longitude - other.longitude)
        return min(dLon, 360 - dLon) <= Double(halfLongitude) + Double(other.halfLongitude) + margin
    }

    /// The smallest `Float` not below `value`.
    static func roundedUp(_ value: Double) -> Float {
        let single = Float(value)
        return Double(single) >= value ? single : single.nextUp
    }
}
