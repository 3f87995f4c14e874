#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reference ellipsoid of a geodetic datum: semi-major axis and inverse
/// flattening.
///
/// Grid coordinates from national maps (British National Grid on Airy 1830,
/// the Swiss LV03 grid on Bessel 1841) are projections on their own
/// ellipsoid; ``cartesian(latitude:longitude:height:)`` and
/// ``geodetic(x:y:z:)`` move between latitude/longitude and Earth-centred
/// X/Y/Z so that a datum shift can be applied (see ``DatumShift``).
public struct Ellipsoid: Sendable, Equatable {
    /// Equatorial radius in metres.
    public let semiMajorAxis: Double
    /// 1 / flattening.
    public let inverseFlattening: Double

    /// Creates an ellipsoid from its semi-major axis (metres) and inverse flattening.
    public init(semiMajorAxis: Double, inverseFlattening: Double) {
        self.semiMajorAxis = semiMajorAxis
        self.inverseFlattening = inverseFlattening
    }

    /// WGS 84 (GPS): a = 6 378 137 m, 1/f = 298.257223563.
    public static let wgs84 = Ellipsoid(semiMajorAxis: 6_378_137, inverseFlattening: 298.257223563)
    /// Airy 1830, the ellipsoid of OSGB36 (British National Grid).
    public static let airy1830 = Ellipsoid(semiMajorAxis: 6_377_563.396, inverseFlattening: 299.3249646)
    /// Bessel 1841, the ellipsoid of CH1903 (Swiss LV03 grid).
    public static let bessel1841 = Ellipsoid(semiMajorAxis: 6_377_397.155, inverseFlattening: 299.1528128)

    /// f = 1 / inverse flattening.
    public var flattening: Double { 1 / inverseFlattening }
    /// e² = f (2 − f), the first eccentricity squared.
    public var eccentricitySquared: Double { flattening * (2 - flattening) }

    /// Earth-centred, Earth-fixed X/Y/Z in metres of a point given in
    /// degrees and metres above this ellipsoid.
    public func cartesian(latitude: Double, longitude: Double, height: Double = 0) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let e2 = eccentricitySquared
        let sinPhi = sin(phi)
        let nu = semiMajorAxis / (1 - e2 * sinPhi * sinPhi).squareRoot()
        return (
            (nu + height) * cos(phi) * cos(lambda),
            (nu + height) * cos(phi) * sin(lambda),
            ((1 - e2) * nu + height) * sinPhi
        )
    }

    /// Latitude and longitude (degrees) and height (metres) on this
    /// ellipsoid of an Earth-centred X/Y/Z point, by fixed-point iteration
    /// on the latitude (converges to 1e-14 rad in a few steps near the surface).
    public func geodetic(x: Double, y: Double, z: Double) -> (latitude: Double, longitude: Double, height: Double) {
        let e2 = eccentricitySquared
        let p = (x * x + y * y).squareRoot()
        var phi = atan2(z, p * (1 - e2))
        var nu = semiMajorAxis
        for _ in 0..<20 {
            let sinPhi = sin(phi)
            nu = semiMajorAxis / (1 - e2 * sinPhi * sinPhi).squareRoot()
            let next = atan2(z + e2 * nu * sinPhi, p)
            let converged = abs(next - phi) < 1e-14
            phi = next
            if converged { break }
        }
        let height = p / cos(phi) - nu
        return (phi * 180 / .pi, atan2(y, x) * 180 / .pi, height)
    }
}
