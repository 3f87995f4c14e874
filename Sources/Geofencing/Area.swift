import GeoCore

/// One or more polygons with holes, in longitude/latitude: a GeoJSON
/// Polygon or MultiPolygon.
///
/// Rings follow GeoJSON: closed (last vertex equals the first), at least
/// four vertices. Containment is the even–odd rule in lon/lat degrees; a
/// ring that crosses the antimeridian is read the short way round (its
/// longitudes are unwrapped into one continuous frame), so a polygon from
/// 179° E to 179° W is 2° wide, not 358°. A ring around a pole is written
/// as RFC 7946 writes Antarctica: along the antimeridian to the pole and
/// across it, an edge from −180° to +180° on one parallel (`[-180, 89],
/// [180, 89], [180, 90], [-180, 90], [-180, 89]` is the cap north of 89°);
/// such an edge runs the whole way round its parallel. A ring that goes
/// round a pole without one is refused (``AreaError/aroundPole(polygon:ring:)``).
public struct Area: Hashable, Sendable {
    /// The polygons as given: polygon → rings (outer first, then holes) → vertices.
    public let polygons: [[[Coordinate]]]
    /// Prepared rings in the unwrapped frame.
    let rings: [PreparedRing]
    /// The unwrapped longitude range of all outer rings.
    let lonMin: Double
    let lonMax: Double
    /// A box around the whole area (with a rounding margin).
    public let boundingBox: BoundingBox
    /// The radius of a circle with the same surface, in metres.
    public let equivalentRadius: Double

    /// Prepares an area, or says which ring is unusable.
    public init(polygons: [[[Coordinate]]]) throws(AreaError) {
        guard !polygons.isEmpty else { throw .empty }
        var prepared: [PreparedRing] = []
        var reference: Double?
        for (p, polygon) in polygons.enumerated() {
            guard !polygon.isEmpty else { throw .empty }
            for (r, ring) in polygon.enumerated() {
                guard ring.count >= 4 else { throw .tooFewVertices(polygon: p, ring: r) }
                guard ring.first == ring.last else { throw .openRing(polygon: p, ring: r) }
                for vertex in ring where !vertex.isValid {
                    throw .invalidCoordinate(polygon: p, ring: r, vertex)
                }
                let ref = reference ?? ring[0].longitude
                reference = ref
                guard let lons = PreparedRing.unwrappedLongitudes(ring, near: ref) else {
                    throw .aroundPole(polygon: p, ring: r)
                }
                prepared.append(PreparedRing(ring, lons: lons, polygon: p, isHole: r > 0))
            }
        }
        let outers = prepared.filter { !$0.isHole }
        guard outers.contains(where: { !$0.isFlat }) else { throw .noArea }
        self.polygons = polygons
        self.rings = prepared
        lonMin = outers.map(\.lonMin).min()!
        lonMax = outers.map(\.lonMax).max()!
        let south = outers.map(\.latMin).min()!
        let north = outers.map(\.latMax).max()!
        let margin = 1e-9
        if lonMax - lonMin + 2 * margin >= 360 {
            boundingBox = BoundingBox(
                south: max(-90, south - margin), north: min(90, north + margin), west: -180, east: 180)
        } else {
            boundingBox = BoundingBox(
                south: max(-90, south - margin), north: min(90, north + margin),
                west: Geodesy.wrapLongitude(lonMin - margin), east: Geodesy.wrapLongitude(lonMax + margin))
        }
        let surface = prepared.reduce(0.0) { $0 + ($1.isHole ? -1 : 1) * $1.surface }
        equivalentRadius = (max(0, surface) / .pi).squareRoot()
    }

    /// The longitudes (shifted by whole turns) at which `point` falls in
    /// the area's unwrapped frame.
    private func frameLongitudes(_ longitude: Double) -> [Double] {
        [longitude - 360, longitude, longitude + 360].filter { $0 >= lonMin && $0 <= lonMax }
    }

    /// Whether `point` is inside the area: inside some polygon's outer
    /// ring and none of that polygon's holes (even–odd rule).
    public func contains(_ point: Coordinate) -> Bool {
        for lon in frameLongitudes(point.longitude) {
            // Rings are stored polygon by polygon, the outer ring first.
            var inside = false
            for ring in rings {
                if !ring.isHole {
                    if inside { return true }
                    inside = ring.contains(lon: lon, lat: point.latitude)
                } else if inside, ring.contains(lon: lon, lat: point.latitude) {
                    inside = false
                }
            }
            if inside { return true }
        }
        return false
    }

    /// The distance in metres from `point` to the nearest ring edge, in a
    /// local equirectangular projection around the point.
    public func distanceToBoundary(from point: Coordinate) -> Double {
        let scale = Geodesy.metresPerDegree
        let cosLat = cosine(degrees: point.latitude)
        var best = Double.infinity
        for ring in rings {
            let shift = ((ring.lonMin + ring.lonMax) / 2 - point.longitude)
            let lon = point.longitude + 360 * (shift / 360).rounded()
            for i in 0..<(ring.lons.count - 1) {
                let ax = (ring.lons[i] - lon) * cosLat * scale
                let ay = (ring.lats[i] - point.latitude) * scale
                let bx = (ring.lons[i + 1] - lon) * cosLat * scale
                let by = (ring.lats[i + 1] - point.latitude) * scale
                let dx = bx - ax
                let dy = by - ay
                let length = dx * dx + dy * dy
                let t = length > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length)) : 0
                let cx = ax + t * dx
                let cy = ay + t * dy
                best = min(best, (cx * cx + cy * cy).squareRoot())
            }
        }
        return best
    }

    /// The middle (fraction 0…1) of the first stretch of the segment
    /// `start`→`end` that lies inside the area, or `nil`.
    public func firstInsideMidpoint(from start: Coordinate, to end: Coordinate) -> Double? {
        let step = Geodesy.wrapLongitude(end.longitude - start.longitude)
        var cuts: [Double] = [0, 1]
        for lon0 in [start.longitude - 360, start.longitude, start.longitude + 360] {
            let lon1 = lon0 + step
            guard max(lon0, lon1) >= lonMin, min(lon0, lon1) <= lonMax else { continue }
            for ring in rings {
                for i in 0..<(ring.lons.count - 1) {
                    if let t = segmentIntersection(
                        (lon0, start.latitude), (lon1, end.latitude),
                        (ring.lons[i], ring.lats[i]), (ring.lons[i + 1], ring.lats[i + 1]))
                    {
                        cuts.append(t)
                    }
                }
            }
        }
        cuts.sort()
        for i in 0..<(cuts.count - 1) where cuts[i + 1] > cuts[i] {
            let middle = (cuts[i] + cuts[i + 1]) / 2
            if contains(interpolate(from: start, to: end, fraction: middle)) { return middle }
        }
        return nil
    }
}

/// Why a polygon could not be used as a region.
public enum AreaError: Error, Hashable, Sendable {
    /// No polygon, or a polygon without rings.
    case empty
    /// A ring with fewer than four vertices.
    case tooFewVertices(polygon: Int, ring: Int)
    /// A ring whose last vertex is not its first.
    case openRing(polygon: Int, ring: Int)
    /// A vertex outside ±90°/±180° or not finite.
    case invalidCoordinate(polygon: Int, ring: Int, Coordinate)
    /// A ring that goes round a pole without an edge from −180° to +180°
    /// along a parallel, so no reading of it in degrees closes.
    case aroundPole(polygon: Int, ring: Int)
    /// Every outer ring's positions lie on one line (or on one point), so
    /// that nothing is ever inside.
    case noArea
}

/// A ring unwrapped into a continuous longitude frame, with its extent.
struct PreparedRing: Hashable, Sendable {
    let polygon: Int
    let isHole: Bool
    let lons: [Double]
    let lats: [Double]
    let lonMin: Double
    let lonMax: Double
    let latMin: Double
    let latMax: Double
    /// The planar surface in square metres (shoelace, local projection).
    let surface: Double

    /// `ring` (closed) in the frame `lons` gives its longitudes.
    init(_ ring: [Coordinate], lons: [Double], polygon: Int, isHole: Bool) {
        self.polygon = polygon
        self.isHole = isHole
        self.lons = lons
        lats = ring.map(\.latitude)
        lonMin = lons.min()!
        lonMax = lons.max()!
        latMin = lats.min()!
        latMax = lats.max()!
        let scale = Geodesy.metresPerDegree
        let cosLat = cosine(degrees: (latMin + latMax) / 2)
        var twice = 0.0
        for i in 0..<(lons.count - 1) {
            twice += (lons[i] * lats[i + 1] - lons[i + 1] * lats[i])
        }
        surface = abs(twice) / 2 * scale * scale * cosLat
    }

    /// Whether the ring's positions lie on one line in the frame, or on
    /// one point: it then has no inside, whereas a ring that crosses
    /// itself (a bow tie, whose signed surface may be 0) has.
    var isFlat: Bool {
        let (lon0, lat0) = (lons[0], lats[0])
        guard let first = lons.indices.first(where: { lons[$0] != lon0 || lats[$0] != lat0 }) else { return true }
        let (dLon, dLat) = (lons[first] - lon0, lats[first] - lat0)
        let length = (dLon * dLon + dLat * dLat).squareRoot()
        return lons.indices.allSatisfy { index in
            let (eLon, eLat) = (lons[index] - lon0, lats[index] - lat0)
            let cross = dLon * eLat - dLat * eLon
            return abs(cross) <= 1e-12 * length * (eLon * eLon + eLat * eLat).squareRoot()
        }
    }

    /// The longitudes of the closed `ring` in one continuous frame that
    /// starts within half a turn of `reference`, or `nil` if no reading
    /// closes the ring.
    ///
    /// Each edge goes the short way round, except that an edge from −180°
    /// to +180° (or back) on one parallel goes the whole way round it: the
    /// edge RFC 7946 closes a ring around a pole with, whose short reading
    /// would join two names of one point. Where that reading leaves the
    /// ring open (a ring across the antimeridian that merely has a vertex
    /// on it twice), every edge goes the short way. A ring that goes round
    /// a pole without such an edge closes in neither reading.
    static func unwrappedLongitudes(_ ring: [Coordinate], near reference: Double) -> [Double]? {
        for fullTurns in [true, false] {
            var lons: [Double] = []
            lons.reserveCapacity(ring.count)
            var previous = reference + Geodesy.wrapLongitude(ring[0].longitude - reference)
            lons.append(previous)
            for (before, vertex) in zip(ring, ring.dropFirst()) {
                if fullTurns, abs(before.longitude) == 180, vertex.longitude == -before.longitude,
                    vertex.latitude == before.latitude
                {
                    previous += vertex.longitude - before.longitude
                } else {
                    previous += Geodesy.wrapLongitude(vertex.longitude - Geodesy.wrapLongitude(previous))
                }
                lons.append(previous)
            }
            // An open reading ends whole turns away from the start.
            if abs(lons[lons.count - 1] - lons[0]) < 180 { return lons }
        }
        return nil
    }

    /// Even–odd ray casting towards +lon in the unwrapped frame.
    func contains(lon: Double, lat: Double) -> Bool {
        guard lat >= latMin, lat <= latMax, lon >= lonMin, lon <= lonMax else { return false }
        var inside = false
        var j = lons.count - 2
        for i in 0..<(lons.count - 1) {
            let yi = lats[i]
            let yj = lats[j]
            if (yi > lat) != (yj > lat) {
                let crossLon = (lons[j] - lons[i]) * (lat - yi) / (yj - yi) + lons[i]
                if lon < crossLon { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

/// The fraction along segment p0→p1 where it meets segment q0→q1, if it does.
func segmentIntersection(
    _ p0: (Double, Double), _ p1: (Double, Double), _ q0: (Double, Double), _ q1: (Double, Double)
) -> Double? {
    let rx = p1.0 - p0.0
    let ry = p1.1 - p0.1
    let sx = q1.0 - q0.0
    let sy = q1.1 - q0.1
    let denominator = rx * sy - ry * sx
    guard denominator != 0 else { return nil }
    let qpx = q0.0 - p0.0
    let qpy = q0.1 - p0.1
    let t = (qpx * sy - qpy * sx) / denominator
    let u = (qpx * ry - qpy * rx) / denominator
    guard t >= 0, t <= 1, u >= 0, u <= 1 else { return nil }
    return t
}
