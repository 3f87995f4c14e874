#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A transverse Mercator grid (UTM, the British National Grid…): turns
/// eastings and northings back into latitude and longitude on the grid's
/// own ellipsoid.
///
/// The inverse uses the series of Snyder, "Map Projections — A Working
/// Manual" (USGS Professional Paper 1395, 1987), equations 3-21, 3-26,
/// 8-18 … 8-25 — the formulas GPSBabel and most GPS tools use. They are
/// exact to well under a millimetre within a few degrees of the central
/// meridian, which covers every UTM zone and the whole of Great Britain.
///
/// Example (Ordnance Survey's worked example, "A guide to coordinate
/// systems in Great Britain", annex C): on ``britishNationalGrid``,
/// E 651 409.903 m, N 313 177.270 m is 52°39′27.2531″ N, 1°43′4.5177″ E
/// (OSGB36), i.e. 52.657570°, 1.717922°.
public struct TransverseMercator: Sendable, Equatable {
    /// The ellipsoid the grid is projected from.
    public var ellipsoid: Ellipsoid
    /// Scale factor on the central meridian (k₀).
    public var scale: Double
    /// Latitude of the true origin, degrees.
    public var originLatitude: Double
    /// Longitude of the central meridian, degrees.
    public var centralMeridian: Double
    /// Easting of the true origin, metres.
    public var falseEasting: Double
    /// Northing of the true origin, metres.
    public var falseNorthing: Double

    /// Creates a grid definition.
    public init(
        ellipsoid: Ellipsoid, scale: Double, originLatitude: Double, centralMeridian: Double,
        falseEasting: Double, falseNorthing: Double
    ) {
        self.ellipsoid = ellipsoid
        self.scale = scale
        self.originLatitude = originLatitude
        self.centralMeridian = centralMeridian
        self.falseEasting = falseEasting
        self.falseNorthing = falseNorthing
    }

    /// The British National Grid: Airy 1830, k₀ = 0.9996012717, true
    /// origin 49° N 2° W at E 400 000 m, N −100 000 m.
    public static let britishNationalGrid = TransverseMercator(
        ellipsoid: .airy1830, scale: 0.9996012717, originLatitude: 49, centralMeridian: -2,
        falseEasting: 400_000, falseNorthing: -100_000)

    /// Latitude and longitude (degrees, on ``ellipsoid``) of a grid position.
    public func coordinate(easting: Double, northing: Double) -> Coordinate {
        let a = ellipsoid.semiMajorAxis
        let e2 = ellipsoid.eccentricitySquared
        let ep2 = e2 / (1 - e2)
        let root = (1 - e2).squareRoot()
        let e1 = (1 - root) / (1 + root)
        let arc = meridianArc(originLatitude * .pi / 180) + (northing - falseNorthing) / scale
        let mu = arc / (a * (1 - e2 / 4 - 3 * e2 * e2 / 64 - 5 * e2 * e2 * e2 / 256))
        let footpoint =
            mu + (3 * e1 / 2 - 27 * pow(e1, 3) / 32) * sin(2 * mu)
            + (21 * e1 * e1 / 16 - 55 * pow(e1, 4) / 32) * sin(4 * mu)
            + (151 * pow(e1, 3) / 96) * sin(6 * mu) + (1097 * pow(e1, 4) / 512) * sin(8 * mu)
        let sinF = sin(footpoint), cosF = cos(footpoint), tanF = tan(footpoint)
        let c1 = ep2 * cosF * cosF
        let t1 = tanF * tanF
        let w = 1 - e2 * sinF * sinF
        let n1 = a / w.squareRoot()
        let r1 = a * (1 - e2) / (w * w.squareRoot())
        let d = (easting - falseEasting) / (n1 * scale)
        let d2 = d * d
        let latitude =
            footpoint - (n1 * tanF / r1)
            * (d2 / 2 - (5 + 3 * t1 + 10 * c1 - 4 * c1 * c1 - 9 * ep2) * d2 * d2 / 24
                + (61 + 90 * t1 + 298 * c1 + 45 * t1 * t1 - 252 * ep2 - 3 * c1 * c1) * d2 * d2 * d2 / 720)
        let longitude =
            (d - (1 + 2 * t1 + c1) * d2 * d / 6
                + (5 - 2 * c1 + 28 * t1 - 3 * c1 * c1 + 8 * ep2 + 24 * t1 * t1) * d2 * d2 * d / 120) / cosF
        return Coordinate(latitude: latitude * 180 / .pi, longitude: centralMeridian + longitude * 180 / .pi)
    }

    /// Distance along the meridian from the equator to latitude `phi` (radians), metres.
    private func meridianArc(_ phi: Double) -> Double {
        let e2 = ellipsoid.eccentricitySquared
        let e4 = e2 * e2, e6 = e4 * e2
        return ellipsoid.semiMajorAxis
            * ((1 - e2 / 4 - 3 * e4 / 64 - 5 * e6 / 256) * phi
                - (3 * e2 / 8 + 3 * e4 / 32 + 45 * e6 / 1024) * sin(2 * phi)
                + (15 * e4 / 256 + 45 * e6 / 1024) * sin(4 * phi)
                - (35 * e6 / 3072) * sin(6 * phi))
    }
}

/// Universal Transverse Mercator positions on WGS 84.
public enum UTM {
    /// The grid of a zone (1…60) in one hemisphere: k₀ = 0.9996, central
    /// meridian 6 × zone − 183°, false easting 500 000 m, false northing
    /// 10 000 000 m in the southern hemisphere.
    public static func grid(zone: Int, southern: Bool) -> TransverseMercator {
        TransverseMercator(
            ellipsoid: .wgs84, scale: 0.9996, originLatitude: 0, centralMeridian: Double(6 * zone - 183),
            falseEasting: 500_000, falseNorthing: southern ? 10_000_000 : 0)
    }

    /// The WGS 84 position of a UTM zone (1…60), latitude band letter and
    /// easting/northing in metres; `nil` for a zone or band that does not
    /// exist. Bands `C`…`M` are south of the equator, `N`…`X` north (`I`
    /// and `O` are not used; lower case is accepted). The Norway and
    /// Svalbard zone exceptions do not move a zone's central meridian.
    ///
    /// Example: zone 44, band R, E 413 954 m, N 2 809 536 m is
    /// 25.400181° N, 80.144526° E (as GPSBabel reads it).
    public static func coordinate(zone: Int, band: Character, easting: Double, northing: Double) -> Coordinate? {
        guard (1...60).contains(zone), let letter = band.uppercased().unicodeScalars.first,
            band.unicodeScalars.count == 1, ("C"..."X").contains(letter), letter != "I", letter != "O"
        else { return nil }
        return grid(zone: zone, southern: letter < "N").coordinate(easting: easting, northing: northing)
    }
}
