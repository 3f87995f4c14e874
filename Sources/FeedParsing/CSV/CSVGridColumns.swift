import GeoCore

/// Grid-coordinate columns of a CSV file without latitude/longitude:
/// UTM, the Swiss LV03 grid or the British National Grid, as GPSBabel's
/// unicsv writes them (`UTM-Zone,UTM-Ch,UTM-East,UTM-North`,
/// `Swiss-East,Swiss-North`, `BNG-Zone,BNG-East,BNG-North`, or the short
/// `utm_z,utm_c,utm_e,utm_n` forms). Each row is converted to WGS 84 by
/// ``UTM``, ``SwissGrid`` or ``BritishNationalGrid``.
///
/// `indirect` keeps it one pointer wide inside the row decoder: a wider
/// stored property measurably slowed the latitude/longitude row path
/// (4.5M instead of 4.7M rows/s in `bench --parse`).
indirect enum CSVGridColumns: Equatable {
    /// Zone number, optional band letter (none: northern hemisphere), easting, northing.
    case utm(zone: Int, band: Int?, easting: Int, northing: Int)
    /// LV03 easting and northing.
    case swiss(easting: Int, northing: Int)
    /// Optional 100 km square letters (none: full eastings/northings), easting, northing.
    case britishNationalGrid(square: Int?, easting: Int, northing: Int)

    /// Normalized header names (see ``CSVField/normalize(_:)``) per grid column.
    static let utmZoneNames: Set<String> = ["utmz", "utmzone"]
    static let utmBandNames: Set<String> = ["utmc", "utmch", "utmzc", "utmband", "utmletter"]
    static let utmEastingNames: Set<String> = ["utme", "utmeast", "utmeasting"]
    static let utmNorthingNames: Set<String> = ["utmn", "utmnorth", "utmnorthing"]
    static let swissEastingNames: Set<String> = ["swisse", "swisseast", "swisseasting"]
    static let swissNorthingNames: Set<String> = ["swissn", "swissnorth", "swissnorthing"]
    static let bngSquareNames: Set<String> = ["bngz", "bngzone", "bngsquare"]
    static let bngEastingNames: Set<String> = ["bnge", "bngeast", "bngeasting"]
    static let bngNorthingNames: Set<String> = ["bngn", "bngnorth", "bngnorthing"]

    /// The grid a header names, if it has a complete set of columns
    /// (UTM first, then Swiss, then British).
    init?(normalizedNames names: [String]) {
        func column(_ candidates: Set<String>) -> Int? { names.firstIndex(where: candidates.contains) }
        if let zone = column(Self.utmZoneNames), let easting = column(Self.utmEastingNames),
            let northing = column(Self.utmNorthingNames)
        {
            self = .utm(zone: zone, band: column(Self.utmBandNames), easting: easting, northing: northing)
        } else if let easting = column(Self.swissEastingNames), let northing = column(Self.swissNorthingNames) {
            self = .swiss(easting: easting, northing: northing)
        } else if let easting = column(Self.bngEastingNames), let northing = column(Self.bngNorthingNames) {
            self = .britishNationalGrid(square: column(Self.bngSquareNames), easting: easting, northing: northing)
        } else {
            return nil
        }
    }

    /// A short description for diagnostics.
    var name: String {
        switch self {
        case .utm: "UTM zone/easting/northing"
        case .swiss: "Swiss LV03 easting/northing"
        case .britishNationalGrid: "British National Grid easting/northing"
        }
    }

    /// The WGS 84 position of one row, given its cells.
    ///
    /// - Parameters:
    ///   - number: a cell's value as a number.
    ///   - text: a cell's text, trimmed of blanks (empty when absent).
    func coordinate(number: (Int) -> FieldValue<Double>, text: (Int) -> String) -> FieldValue<Coordinate> {
        switch self {
        case .utm(let zoneColumn, let bandColumn, let eastingColumn, let northingColumn):
            guard case .value(let easting) = number(eastingColumn), case .value(let northing) = number(northingColumn),
                case .value(let zone) = number(zoneColumn)
            else { return Self.missingOrInvalid(number(zoneColumn), number(eastingColumn), number(northingColumn)) }
            let bandText = bandColumn.map(text) ?? ""
            guard zone == zone.rounded(), abs(zone) <= 60, bandText.count <= 1,
                let position = UTM.coordinate(zone: Int(zone), band: bandText.first ?? "N", easting: easting, northing: northing)
            else { return .invalid }
            return .value(position)
        case .swiss(let eastingColumn, let northingColumn):
            guard case .value(let easting) = number(eastingColumn), case .value(let northing) = number(northingColumn) else {
                return Self.missingOrInvalid(number(eastingColumn), number(northingColumn))
            }
            return .value(SwissGrid.coordinate(easting: easting, northing: northing))
        case .britishNationalGrid(let squareColumn, let eastingColumn, let northingColumn):
            guard case .value(let easting) = number(eastingColumn), case .value(let northing) = number(northingColumn) else {
                return Self.missingOrInvalid(number(eastingColumn), number(northingColumn))
            }
            let square = squareColumn.map(text) ?? ""
            if square.isEmpty {
                return .value(BritishNationalGrid.coordinate(easting: easting, northing: northing))
            }
            guard (0..<100_000).contains(easting), (0..<100_000).contains(northing),
                let position = BritishNationalGrid.coordinate(square: square, easting: easting, northing: northing)
            else { return .invalid }
            return .value(position)
        }
    }

    private static func missingOrInvalid(_ values: FieldValue<Double>...) -> FieldValue<Coordinate> {
        values.contains { $0.isAbsent } ? .absent : .invalid
    }
}
