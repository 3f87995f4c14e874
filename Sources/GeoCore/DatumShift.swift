#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moves a latitude/longitude from one geodetic datum to another.
///
/// Two classic methods, each the one a national grid's users (and
/// GPSBabel) apply to reach WGS 84:
/// - ``molodensky(_:from:to:dx:dy:dz:)``: the standard Molodensky formulas
///   with a three-parameter shift (NIMA TR 8350.2), used for CH1903 →
///   WGS 84 with (674, 15, 405) m.
/// - ``helmert(_:from:to:_:)``: a seven-parameter Helmert transformation in
///   Earth-centred X/Y/Z, used for OSGB36 → WGS 84 with the Ordnance
///   Survey's published parameters (accurate to a few metres).
public enum DatumShift {
    /// Seven Helmert parameters: translations in metres, scale in parts per
    /// million, rotations in arc seconds (position-vector convention, as in
    /// the Ordnance Survey's "A guide to coordinate systems in Great Britain").
    public struct HelmertParameters: Sendable, Equatable {
        /// Translation along X, Y, Z (metres).
        public var tx, ty, tz: Double
        /// Scale change (ppm).
        public var scalePPM: Double
        /// Rotations about X, Y, Z (arc seconds).
        public var rx, ry, rz: Double

        /// Creates a parameter set.
        public init(tx: Double, ty: Double, tz: Double, scalePPM: Double, rx: Double, ry: Double, rz: Double) {
            (self.tx, self.ty, self.tz, self.scalePPM, self.rx, self.ry, self.rz) = (tx, ty, tz, scalePPM, rx, ry, rz)
        }

        /// The same transformation run backwards, approximated (as the
        /// Ordnance Survey recommends) by changing every sign; the error is
        /// far below the transformation's own few-metre accuracy.
        public var reversed: HelmertParameters {
            HelmertParameters(tx: -tx, ty: -ty, tz: -tz, scalePPM: -scalePPM, rx: -rx, ry: -ry, rz: -rz)
        }

        /// WGS 84 → OSGB36 (Ordnance Survey guide, section 6.6):
        /// t = (−446.448, +125.157, −542.060) m, s = +20.4894 ppm,
        /// r = (−0.1502, −0.2470, −0.8421)″.
        public static let wgs84ToOSGB36 = HelmertParameters(
            tx: -446.448, ty: 125.157, tz: -542.060, scalePPM: 20.4894, rx: -0.1502, ry: -0.2470, rz: -0.8421)
    }

    /// The standard Molodensky transformation of a point at height 0 on
    /// `source` to the `target` ellipsoid, where the target datum's centre
    /// is at (−dx, −dy, −dz) in the source frame (dx/dy/dz: the shift
    /// from source to target, metres).
    ///
    /// Example: CH1903 (Bessel 1841) 46.954142°, 7.444195° (Bern, LV03
    /// E 600 351 m, N 200 193 m) with (674, 15, 405) m is 46.952819°,
    /// 7.443243° on WGS 84 — about 165 m apart.
    public static func molodensky(
        _ coordinate: Coordinate, from source: Ellipsoid, to target: Ellipsoid, dx: Double, dy: Double, dz: Double
    ) -> Coordinate {
        let phi = coordinate.latitude * .pi / 180
        let lambda = coordinate.longitude * .pi / 180
        let a = source.semiMajorAxis
        let f = source.flattening
        let e2 = source.eccentricitySquared
        let da = target.semiMajorAxis - a
        let df = target.flattening - f
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let w = 1 - e2 * sinPhi * sinPhi
        let nu = a / w.squareRoot()
        let rho = a * (1 - e2) / (w * w.squareRoot())
        let bOverA = 1 - f
        let dPhi =
            (-dx * sinPhi * cosLambda - dy * sinPhi * sinLambda + dz * cosPhi
                + da * nu * e2 * sinPhi * cosPhi / a
                + df * (rho / bOverA + nu * bOverA) * sinPhi * cosPhi) / rho
        let dLambda = (-dx * sinLambda + dy * cosLambda) / (nu * cosPhi)
        return Coordinate(latitude: (phi + dPhi) * 180 / .pi, longitude: (lambda + dLambda) * 180 / .pi)
    }

    /// A Helmert transformation of a point at height 0 on `source` to the
    /// `target` ellipsoid, through Earth-centred X/Y/Z.
    ///
    /// Example: OSGB36 (Airy 1830) 50.826839°, −2.048961° (Badbury Rings
    /// trig point, grid ST 96552 03097) with ``HelmertParameters/wgs84ToOSGB36``
    /// reversed is 50.827400°, −2.050323° on WGS 84 (the Molodensky shift
    /// with (375, −111, 431) m that GPSBabel 1.8.0 uses gives 50.827336°,
    /// −2.050345°, 7 m away).
    public static func helmert(
        _ coordinate: Coordinate, from source: Ellipsoid, to target: Ellipsoid, _ p: HelmertParameters
    ) -> Coordinate {
        let (x, y, z) = source.cartesian(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let s = 1 + p.scalePPM * 1e-6
        let arcSecond = Double.pi / (180 * 3600)
        let rx = p.rx * arcSecond, ry = p.ry * arcSecond, rz = p.rz * arcSecond
        let shifted = target.geodetic(
            x: p.tx + s * x - rz * y + ry * z,
            y: p.ty + rz * x + s * y - rx * z,
            z: p.tz - ry * x + rx * y + s * z)
        return Coordinate(latitude: shifted.latitude, longitude: shifted.longitude)
    }
}
