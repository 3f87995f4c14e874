/// Line simplification in drawing space, for drawing only.
public enum Simplification {
    /// The points of `line` (pixels) a drawing needs: first consecutive
    /// points closer than `tolerance` to the last one kept are dropped (a
    /// pixel-grid pass, O(n)), then Douglas–Peucker removes every point
    /// within `tolerance` of the line through its neighbours kept.
    ///
    /// The first and last points are always kept, and every input point
    /// lies within 2 × `tolerance` of the result (within `tolerance` of it
    /// after the first pass, and that pass moves nothing farther than
    /// `tolerance`). Douglas–Peucker uses an explicit stack: O(n log n)
    /// for a typical track, O(n²) at worst.
    public static func simplify(_ line: [PlanePoint], tolerance: Double) -> [PlanePoint] {
        guard line.count > 2 else { return line }
        var thinned = [line[0]]
        for point in line.dropFirst().dropLast() where distanceSquared(point, thinned[thinned.count - 1]) >= tolerance * tolerance
        {
            thinned.append(point)
        }
        thinned.append(line[line.count - 1])
        return douglasPeucker(thinned, tolerance: tolerance)
    }

    /// Douglas–Peucker: the points of `line` farther than `tolerance` from
    /// the chord of the part they belong to, with both ends.
    static func douglasPeucker(_ line: [PlanePoint], tolerance: Double) -> [PlanePoint] {
        guard line.count > 2 else { return line }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var stack = [(0, line.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var largest = 0.0
            for index in (first + 1)..<last {
                let distance = segmentDistanceSquared(line[index], line[first], line[last])
                if distance > largest {
                    largest = distance
                    farthest = index
                }
            }
            if largest > tolerance * tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }

    /// The squared distance from `p` to the segment from `a` to `b`.
    static func segmentDistanceSquared(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return distanceSquared(p, a) }
        let t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
        return distanceSquared(p, PlanePoint(x: a.x + t * dx, y: a.y + t * dy))
    }

    static func distanceSquared(_ p: PlanePoint, _ q: PlanePoint) -> Double {
        (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
    }
}
