import GeoCore

/// A uniform latitude/longitude grid over region bounding boxes: the fast
/// ``RegionIndex``.
///
/// **Layout.** Each level of the grid is two flat arrays in CSR form:
/// `offsets[cell]..<offsets[cell + 1]` is the range of `slots` holding the
/// keys of the regions whose bounding box touches that cell. There are no
/// per-cell objects. A region is stored in *every* cell its box touches, so
/// a query visits exactly one cell per level. Per key, a 48-byte
/// ``CandidateRecord`` holds the prefilter box and the haversine constants.
///
/// **Levels.** The level-0 cell size comes from the regions: the larger of
/// the median box height / 2, the 90th percentile / 4, and the size that
/// gives about two cells per region over the covered area (cells are
/// capped at 4n + 1024). A region whose box is more than four cells tall or
/// wide goes to a coarser level (cells ×4 per level), so 1 m and 50 km
/// regions share an index without either replicating into thousands of
/// cells or flooding small cells. Usually there is a single level.
///
/// **Query.** Per level: one cell, then per candidate a two-compare
/// lat/lon prefilter, then the haversine test without `asin`/`sqrt`
/// (h ≤ sin²(r / 2R), with small-angle sines); values within 1e-9 of the
/// threshold are decided by ``Geodesy/distance(_:_:)`` itself, so the grid
/// answers exactly what ``BruteForceIndex`` answers.
///
/// **Antimeridian and poles.** The grid covers the regions' latitude range
/// and the shortest longitude arc that holds every box: its origin is put at
/// the end of the widest empty longitude gap, so a cluster around ±180° is a
/// compact grid. Boxes that wrap are split into two column ranges; caps over
/// a pole span all columns.
///
/// **Changes.** `insert` appends to a small overflow list that every query
/// scans (with the same prefilter); `remove` marks the key absent, leaving
/// stale grid entries that queries skip. When the overflow exceeds
/// max(64, n/8) or the stale entries max(64, n/2), the grid is rebuilt in
/// O(n + slots). Amortized insert/remove cost is O(replication).
///
/// **Complexity.** Build O(n · replication); query O(levels + candidates in
/// the cell + overflow). Memory: 48 + 1 + 8 bytes per key, 4 bytes per
/// (region, cell) pair, 4 bytes per cell.
public struct SpatialGrid: RegionIndex {
    @usableFromInline var records: [CandidateRecord] = []
    /// Per key: 0 absent, 1 in the grid levels, 2 in the overflow list.
    @usableFromInline var placement: [UInt8] = []
    /// Circle radii by key (for the exact fallback and candidate boxes).
    @usableFromInline var radii: [Double] = []
    /// Area shapes by key.
    @usableFromInline var areas: [Int: Area] = [:]
    @usableFromInline var frame = GridFrame.empty
    @usableFromInline var levels: [GridLevel] = []
    @usableFromInline var overflow: [UInt32] = []
    var overflowPosition: [Int: Int] = [:]
    /// Keys placed in the grid levels.
    var gridCount = 0
    /// Keys removed or replaced since the last rebuild whose slots remain.
    var staleCount = 0

    /// The number of regions in the index.
    public var count: Int { gridCount + overflow.count }

    /// An empty grid.
    public init() {}

    /// A grid holding `shapes[i]` under key `i`, built in one pass.
    public init(shapes: [Shape]) {
        records.reserveCapacity(shapes.count)
        radii.reserveCapacity(shapes.count)
        for (key, shape) in shapes.enumerated() { store(shape, forKey: key) }
        placement = [UInt8](repeating: Placement.grid, count: shapes.count)
        rebuild()
    }

    /// Calls `body` once with the key of every region containing `point`.
    @inlinable
    public func forEachRegion(containing point: Coordinate, _ body: (Int) -> Void) {
        let lat = point.latitude
        let lon = point.longitude
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return }
        var cosPoint = -2.0
        records.withUnsafeBufferPointer { records in
            placement.withUnsafeBufferPointer { placement in
                @inline(__always) func test(_ key: Int, _ expected: UInt8) {
                    let record = records[key]
                    let dLat = lat - record.latitude
                    guard abs(dLat) <= record.halfLatitude else { return }
                    var dLon = abs(lon - record.longitude)
                    if dLon > 180 { dLon = 360 - dLon }
                    guard dLon <= record.halfLongitude, placement[key] == expected else { return }
                    if record.threshold >= 0 {
                        if cosPoint < -1 { cosPoint = cosine(degrees: lat) }
                        let s1 = smallAngleSine(dLat * (.pi / 360))
                        let s2 = smallAngleSine(dLon * (.pi / 360))
                        let h = s1 * s1 + record.cosLatitude * cosPoint * (s2 * s2)
                        if h < record.threshold * (1 - 1e-9) {
                            body(key)
                        } else if h <= record.threshold * (1 + 1e-9) {
                            let centre = Coordinate(latitude: record.latitude, longitude: record.longitude)
                            if Geodesy.distance(centre, point) <= radii[key] { body(key) }
                        }
                    } else if areas[key]!.contains(point) {
                        body(key)
                    }
                }
                if lat >= frame.latMin, lat <= frame.latMax {
                    var x = lon - frame.lonOrigin
                    if x < 0 { x += 360 }
                    if x <= frame.xSpan {
                        let y = lat - frame.latMin
                        for level in levels {
                            let cell = level.cell(y: y, x: x)
                            level.offsets.withUnsafeBufferPointer { offsets in
                                level.slots.withUnsafeBufferPointer { slots in
                                    for i in Int(offsets[cell])..<Int(offsets[cell + 1]) {
                                        test(Int(slots[i]), Placement.grid)
                                    }
                                }
                            }
                        }
                    }
                }
                for key in overflow { test(Int(key), Placement.overflow) }
            }
        }
    }

    /// Calls `body` once with the key of every region whose bounding box
    /// intersects `box`, ascending.
    public func forEachCandidate(intersecting box: BoundingBox, _ body: (Int) -> Void) {
        var keys: [Int] = []
        let query = CandidateRecord(box: box, threshold: -1)
        for level in levels {
            level.forEachCell(covering: query, frame: frame) { cell in
                for i in Int(level.offsets[cell])..<Int(level.offsets[cell + 1]) {
                    keys.append(Int(level.slots[i]))
                }
            }
        }
        keys.append(contentsOf: overflow.lazy.map { Int($0) })
        keys.sort()
        var previous = -1
        for key in keys where key != previous {
            previous = key
            if placement[key] != Placement.absent, shape(forKey: key)!.boundingBox.intersects(box) { body(key) }
        }
    }

    /// The shape stored under `key`, if any.
    public func shape(forKey key: Int) -> Shape? {
        guard key >= 0, key < placement.count, placement[key] != Placement.absent else { return nil }
        if let area = areas[key] { return .area(area) }
        let record = records[key]
        return .circle(
            centre: Coordinate(latitude: record.latitude, longitude: record.longitude), radius: radii[key])
    }

    /// Bytes held by the index's arrays (capacity, not count), excluding
    /// area vertex storage: the figure behind "bytes per region".
    public var memoryFootprint: Int {
        var bytes = records.capacity * MemoryLayout<CandidateRecord>.stride
        bytes += placement.capacity + radii.capacity * 8 + overflow.capacity * 4
        for level in levels { bytes += level.offsets.capacity * 4 + level.slots.capacity * 4 }
        return bytes
    }

    /// A summary of the layout for `bench` and debugging: per level the
    /// cell size in metres, rows × columns and slots.
    public var layoutDescription: String {
        levels.map { level in
            let metres = Int((level.cellLatitude * Geodesy.metresPerDegree).rounded())
            return "\(metres) m cells \(level.rows)×\(level.columns), \(level.slots.count) slots"
        }.joined(separator: "; ")
    }
}

/// Placement codes of a key.
@usableFromInline enum Placement {
    @usableFromInline static let absent: UInt8 = 0
    @usableFromInline static let grid: UInt8 = 1
    @usableFromInline static let overflow: UInt8 = 2
}

/// The prefilter box and haversine constants of one region (48 bytes).
///
/// For a circle, (`latitude`, `longitude`) is the centre, `cosLatitude` its
/// cosine and `threshold` = sin²(r / 2R); the half extents are the largest
/// distances from the centre to the edges of its bounding box. For an area,
/// the centre is the box's middle and `threshold` is −1.
@usableFromInline struct CandidateRecord: Sendable {
    @usableFromInline var latitude: Double
    @usableFromInline var longitude: Double
    @usableFromInline var halfLatitude: Double
    @usableFromInline var halfLongitude: Double
    @usableFromInline var cosLatitude: Double
    @usableFromInline var threshold: Double

    /// A record centred on `box` (used for areas and for box queries).
    init(box: BoundingBox, threshold: Double) {
        latitude = (box.south + box.north) / 2
        halfLatitude = (box.north - box.south) / 2
        let width = box.longitudeWidth
        longitude = Geodesy.wrapLongitude(box.west + width / 2)
        halfLongitude = width >= 360 ? 180 : width / 2
        cosLatitude = cosine(degrees: latitude)
        self.threshold = threshold
    }

    /// The record of a circle: centred on the circle's centre.
    init(circle: Circle) {
        let box = Shape.circle(circle).boundingBox
        latitude = circle.centre.latitude
        longitude = circle.centre.longitude
        halfLatitude = max(latitude - box.south, box.north - latitude)
        if box.longitudeWidth >= 360 {
            halfLongitude = 180
        } else {
            let west = Geodesy.wrapLongitude(longitude - box.west)
            let east = Geodesy.wrapLongitude(box.east - longitude)
            halfLongitude = max(abs(west), abs(east))
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
}
