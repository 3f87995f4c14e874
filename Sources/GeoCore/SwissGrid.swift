#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Swiss national grid LV03 (CH1903): eastings around 600 000 m and
/// northings around 200 000 m, an oblique conformal cylindrical projection
/// of the Bessel 1841 ellipsoid centred on the old Bern observatory.
///
/// ``coordinate(easting:northing:)`` uses swisstopo's rigorous formulas
/// ("Formulas and constants for the calculation of the Swiss conformal
/// cylindrical projection", section 3), so it stays exact far outside
/// Switzerland, then shifts CH1903 to WGS 84 with the three-parameter
/// Molodensky transformation (674, 15, 405) m — accurate to a few metres,
/// as in GPSBabel.
///
/// Example: E 600 351 m, N 200 193 m (Bern) is 46.952819°, 7.443243° on
/// WGS 84; E 1 m, N 1 m (far outside the grid) is 44.890228°, −0.163863°.
public enum SwissGrid {
    /// Latitude of the projection centre (46°57′08.66″), degrees.
    static let originLatitude = 46 + 57.0 / 60 + 8.66 / 3600
    /// Longitude of the projection centre (7°26′22.50″), degrees.
    static let originLongitude = 7 + 26.0 / 60 + 22.50 / 3600
    /// CH1903 → WGS 84 shift, metres.
    static let shift = (dx: 674.0, dy: 15.0, dz: 405.0)

    /// The WGS 84 position of an LV03 easting and northing (metres).
    public static func coordinate(easting: Double, northing: Double) -> Coordinate {
        let bessel = besselCoordinate(easting: easting, northing: northing)
        return DatumShift.molodensky(bessel, from: .bessel1841, to: .wgs84, dx: shift.dx, dy: shift.dy, dz: shift.dz)
    }

    /// The CH1903 (Bessel 1841) position of an LV03 easting and northing.
    public static func besselCoordinate(easting: Double, northing: Double) -> Coordinate {
        let ellipsoid = Ellipsoid.bessel1841
        let e2 = ellipsoid.eccentricitySquared
        let e = e2.squareRoot()
        let phi0 = originLatitude * .pi / 180
        let sinPhi0 = sin(phi0)
        // Radius of the projection sphere, its ratio α and the sphere's origin latitude b₀.
        let radius = ellipsoid.semiMajorAxis * (1 - e2).squareRoot() / (1 - e2 * sinPhi0 * sinPhi0)
        let alpha = (1 + e2 / (1 - e2) * pow(cos(phi0), 4)).squareRoot()
        let b0 = asin(sinPhi0 / alpha)
        let k =
            log(tan(.pi / 4 + b0 / 2)) - alpha * log(tan(.pi / 4 + phi0 / 2))
            + alpha * e / 2 * log((1 + e * sinPhi0) / (1 - e * sinPhi0))
        // Grid → oblique sphere → equatorial sphere.
        let lBar = (easting - 600_000) / radius
        let bBar = 2 * (atan(exp((northing - 200_000) / radius)) - .pi / 4)
        let b = asin(cos(b0) * sin(bBar) + sin(b0) * cos(bBar) * cos(lBar))
        let l = atan2(sin(lBar), cos(b0) * cos(lBar) - sin(b0) * tan(bBar))
        // Sphere → ellipsoid: solve for the latitude by fixed-point iteration.
        var phi = b
        for _ in 0..<50 {
            let s =
                (log(tan(.pi / 4 + b / 2)) - k) / alpha
                + e * log(tan(.pi / 4 + asin(e * sin(phi)) / 2))
            let next = 2 * atan(exp(s)) - .pi / 2
            let converged = abs(next - phi) < 1e-14
            phi = next
            if converged { break }
        }
        return Coordinate(latitude: phi * 180 / .pi, longitude: originLongitude + l / alpha * 180 / .pi)
    }
}
