import GeoCore

/// A collection of region shapes under integer keys that answers "which
/// regions contain this point?" — implemented by ``SpatialGrid`` (fast) and
/// ``BruteForceIndex`` (the reference it is tested against).
///
/// Keys are small non-negative integers chosen by the caller (usually the
/// position of the region in the caller's array); they should be dense,
/// because indexes keep per-key tables.
public protocol RegionIndex: Sendable {
    /// An empty index.
    init()
    /// The number of regions in the index.
    var count: Int { get }
    /// Adds `shape` under `key`, replacing any shape already there.
    mutating func insert(_ shape: Shape, forKey key: Int)
    /// Removes the shape under `key`; returns whether there was one.
    @discardableResult mutating func remove(key: Int) -> Bool
    /// Calls `body` once with the key of every region containing `point`
    /// (in no particular order). An invalid coordinate is in no region.
    func forEachRegion(containing point: Coordinate, _ body: (Int) -> Void)
    /// Calls `body` once with the key of every region whose bounding box
    /// intersects `box` (possibly a few more; never fewer).
    func forEachCandidate(intersecting box: BoundingBox, _ body: (Int) -> Void)
}

extension RegionIndex {
    /// An index holding `shapes[i]` under key `i`.
    public init(shapes: [Shape]) {
        self.init()
        for (key, shape) in shapes.enumerated() { insert(shape, forKey: key) }
    }

    /// The keys of the regions containing `point`, ascending.
    public func regions(containing point: Coordinate) -> [Int] {
        var keys: [Int] = []
        forEachRegion(containing: point) { keys.append($0) }
        return keys.sorted()
    }
}

extension BoundingBox {
    /// Whether two boxes share at least one point (antimeridian-aware).
    public func intersects(_ other: BoundingBox) -> Bool {
        guard south <= other.north, other.south <= north else { return false }
        let width = longitudeWidth
        let otherWidth = other.longitudeWidth
        if width >= 360 || otherWidth >= 360 { return true }
        func offset(_ lon: Double, from start: Double) -> Double {
            let d = (lon - start).truncatingRemainder(dividingBy: 360)
            return d < 0 ? d + 360 : d
        }
        return offset(other.west, from: west) <= width || offset(west, from: other.west) <= otherWidth
    }

    /// The box's extent in degrees of longitude (360 for the whole circle).
    public var longitudeWidth: Double {
        if west == -180 && east == 180 { return 360 }
        return crossesAntimeridian ? east - west + 360 : east - west
    }
}
