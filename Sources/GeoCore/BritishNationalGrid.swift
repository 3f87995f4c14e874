/// British National Grid references (OSGB36) and their WGS 84 positions.
///
/// A reference is either full eastings/northings in metres from the grid's
/// false origin (e.g. E 396 552, N 103 097) or a 100 km square's two
/// letters plus the easting/northing inside it (`ST 96552 03097`, the same
/// point). The first letter picks a 500 km square (`S`, `T`, `N`, `O`,
/// `H`, `J` are the ones on land), the second a 100 km square inside it,
/// both from the 25-letter alphabet without `I`, filled row by row from
/// the north-west corner.
///
/// Positions are projected back on Airy 1830 (``TransverseMercator/britishNationalGrid``)
/// and moved to WGS 84 with the Ordnance Survey's seven-parameter Helmert
/// transformation (``DatumShift/HelmertParameters/wgs84ToOSGB36``, reversed),
/// which is good to a few metres, like GPSBabel's development head.
///
/// Example: `ST 96552 03097` (Badbury Rings trig point) is 50.827400°,
/// −2.050323° on WGS 84.
public enum BritishNationalGrid {
    /// The full easting/northing (metres) of the south-west corner of a
    /// 100 km square named by two letters (`"ST"` → 300 000, 100 000);
    /// `nil` for letters that name no square.
    public static func squareOrigin(_ letters: String) -> (easting: Double, northing: Double)? {
        let scalars = Array(letters.uppercased().unicodeScalars)
        guard scalars.count == 2, let first = gridIndex(scalars[0]), let second = gridIndex(scalars[1]) else { return nil }
        // Letters fill 5 × 5 squares row by row from the north-west; the
        // 500 km square S (index 17) starts at the false origin.
        let column = (first % 5 - 2) * 5 + second % 5
        let row = (3 - first / 5) * 5 + (4 - second / 5)
        return (Double(column) * 100_000, Double(row) * 100_000)
    }

    /// The WGS 84 position of full OSGB36 grid eastings/northings (metres).
    public static func coordinate(easting: Double, northing: Double) -> Coordinate {
        let airy = TransverseMercator.britishNationalGrid.coordinate(easting: easting, northing: northing)
        return DatumShift.helmert(airy, from: .airy1830, to: .wgs84, DatumShift.HelmertParameters.wgs84ToOSGB36.reversed)
    }

    /// The WGS 84 position of a reference given as a 100 km square and the
    /// easting/northing inside it (metres); `nil` for an unknown square.
    public static func coordinate(square: String, easting: Double, northing: Double) -> Coordinate? {
        guard let origin = squareOrigin(square) else { return nil }
        return coordinate(easting: origin.easting + easting, northing: origin.northing + northing)
    }

    /// The position of a letter in the 25-letter grid alphabet (A = 0 … Z = 24, no I).
    private static func gridIndex(_ letter: Unicode.Scalar) -> Int? {
        guard ("A"..."Z").contains(letter), letter != "I" else { return nil }
        let index = Int(letter.value - Unicode.Scalar("A").value)
        return letter > "I" ? index - 1 : index
    }
}
