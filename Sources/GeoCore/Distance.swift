/// Great-circle geometry on the mean Earth sphere.
///
/// Every distance in Repeat is a haversine distance on a sphere of radius
/// ``earthRadius`` (the IUGG mean radius, 6 371 008.8 m), so that the grid
/// index, the brute-force reference and the C baselines agree to the metre.
public enum Geodesy {
    /// The mean Earth radius in metres (IUGG R₁).
    public static let earthRadius = 6_371_008.8

    /// Metres per degree of latitude (and of longitude at the equator).
    public static let metresPerDegree = earthRadius * .pi / 180

    /// The haversine distance between two coordinates, in metres.
    ///
    /// Accurate to rounding for all pairs, antipodes included (the argument
    /// of `asin` is clamped to 1).
    @inlinable
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let phi1 = a.latitude * .pi / 180
        let phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let sinPhi = _sin(dPhi / 2)
        let sinLambda = _sin(dLambda / 2)
        let h = sinPhi * sinPhi + _cos(phi1) * _cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadius * _asin(min(1, h.squareRoot()))
    }

    /// The initial bearing from `a` towards `b`, in degrees clockwise from
    /// north, 0..<360. The bearing between identical points is 0.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * .pi / 180
        let phi2 = b.latitude * .pi / 180
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let y = _sin(dLambda) * _cos(phi2)
        let x = _cos(phi1) * _sin(phi2) - _sin(phi1) * _cos(phi2) * _cos(dLambda)
        let degrees = _atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The point reached by travelling `metres` along a great circle from
    /// `start` with the initial `bearing` (degrees clockwise from north).
    /// The longitude of the result is wrapped into −180…180.
    public static func destination(from start: Coordinate, bearing: Double, metres: Double) -> Coordinate {
        let delta = metres / earthRadius
        let theta = bearing * .pi / 180
        let phi1 = start.latitude * .pi / 180
        let lambda1 = start.longitude * .pi / 180
        let sinPhi2 = _sin(phi1) * _cos(delta) + _cos(phi1) * _sin(delta) * _cos(theta)
        let phi2 = _asin(max(-1, min(1, sinPhi2)))
        let y = _sin(theta) * _sin(delta) * _cos(phi1)
        let x = _cos(delta) - _sin(phi1) * sinPhi2
        let lambda2 = lambda1 + _atan2(y, x)
        return Coordinate(latitude: phi2 * 180 / .pi, longitude: wrapLongitude(lambda2 * 180 / .pi))
    }

    /// Wraps a longitude in degrees into −180…180 (180 stays 180).
    public static func wrapLongitude(_ degrees: Double) -> Double {
        if (-180...180).contains(degrees) { return degrees }
        var wrapped = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return wrapped - 180
    }
}

extension Geodesy {
    /// The point `fraction` (0…1) of the way from `a` to `b` along the
    /// great circle (spherical linear interpolation); the nearer end when
    /// the two coincide or are antipodal (no unique great circle).
    public static func intermediate(from a: Coordinate, to b: Coordinate, fraction: Double) -> Coordinate {
        GreatCircleLeg(from: a, to: b).point(at: fraction)
    }
}

/// One great-circle leg with its trigonometry worked out once, for reading
/// many points along it (``Geodesy/intermediate(from:to:fraction:)``
/// reads one).
public struct GreatCircleLeg: Sendable {
    private let start: Coordinate
    private let end: Coordinate
    private let cosPhi1, sinPhi1, cosLambda1, sinLambda1: Double
    private let cosPhi2, sinPhi2, cosLambda2, sinLambda2: Double
    private let delta: Double
    private let sinDelta: Double

    /// The leg from `start` to `end`.
    public init(from start: Coordinate, to end: Coordinate) {
        self.start = start
        self.end = end
        let phi1 = start.latitude * .pi / 180, lambda1 = start.longitude * .pi / 180
        let phi2 = end.latitude * .pi / 180, lambda2 = end.longitude * .pi / 180
        (cosPhi1, sinPhi1, cosLambda1, sinLambda1) = (_cos(phi1), _sin(phi1), _cos(lambda1), _sin(lambda1))
        (cosPhi2, sinPhi2, cosLambda2, sinLambda2) = (_cos(phi2), _sin(phi2), _cos(lambda2), _sin(lambda2))
        delta = Geodesy.distance(start, end) / Geodesy.earthRadius
        sinDelta = _sin(delta)
    }

    /// The point `fraction` (0…1) of the way along the leg; the nearer end
    /// when its ends coincide or are antipodal.
    public func point(at fraction: Double) -> Coordinate {
        guard sinDelta > 1e-12 else { return fraction < 0.5 || delta < 1e-12 ? start : end }
        let wa = _sin((1 - fraction) * delta) / sinDelta
        let wb = _sin(fraction * delta) / sinDelta
        let x = wa * cosPhi1 * cosLambda1 + wb * cosPhi2 * cosLambda2
        let y = wa * cosPhi1 * sinLambda1 + wb * cosPhi2 * sinLambda2
        let z = wa * sinPhi1 + wb * sinPhi2
        return Coordinate(latitude: _atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: _atan2(y, x) * 180 / .pi)
    }
}
