import GeoCore

/// The reference ``RegionIndex``: tests every region for every query.
///
/// O(n) per query and obviously right, so the grid is tested against it and
/// `repeat-sim bench` measures it beside the grid on a sample of positions.
public struct BruteForceIndex: RegionIndex {
    private var shapes: [Shape?] = []
    /// The number of regions in the index.
    public private(set) var count = 0

    /// An empty index.
    public init() {}

    /// Adds `shape` under `key`, replacing any shape already there.
    public mutating func insert(_ shape: Shape, forKey key: Int) {
        precondition(key >= 0, "region keys are non-negative")
        if key >= shapes.count { shapes.append(contentsOf: repeatElement(nil, count: key + 1 - shapes.count)) }
        if shapes[key] == nil { count += 1 }
        shapes[key] = shape
    }

    /// Removes the shape under `key`; returns whether there was one.
    @discardableResult public mutating func remove(key: Int) -> Bool {
        guard key >= 0, key < shapes.count, shapes[key] != nil else { return false }
        shapes[key] = nil
        count -= 1
        return true
    }

    /// Calls `body` with every key whose shape contains `point`, ascending.
    public func forEachRegion(containing point: Coordinate, _ body: (Int) -> Void) {
        guard point.isValid else { return }
        for (key, shape) in shapes.enumerated() {
            if let shape, shape.contains(point) { body(key) }
        }
    }

    /// Calls `body` with every key whose shape's box intersects `box`.
    public func forEachCandidate(intersecting box: BoundingBox, _ body: (Int) -> Void) {
        for (key, shape) in shapes.enumerated() {
            if let shape, shape.boundingBox.intersects(box) { body(key) }
        }
    }
}
