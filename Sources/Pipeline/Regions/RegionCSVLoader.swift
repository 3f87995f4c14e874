import FeedParsing
import GeoCore
import Geofencing

/// Reads circular regions from CSV: `id,lat,lon,radius[,task]`.
///
/// The file is read by FeedParsing's ``DelimitedRowReader`` (delimiter `,`,
/// `;`, tab or `|`; BOM, CRLF, quoted fields, `#` comment lines) and its
/// header names are matched through the same alias table as a CSV feed's
/// (``CSVField``): `id`/`name`/`region`, `lat`/`latitude`, `lon`/`lng`/
/// `long`/`longitude`, `radius`/`radius_m`/`r`, `task`. Without a
/// recognisable header the columns are taken in that order. A row with a
/// bad number, a radius ≤ 0 or NaN, or a latitude beyond ±90 is reported
/// with its line and skipped. Numbers may have a decimal comma where the
/// fields are not comma-separated (``DelimitedRow/number(at:)``).
/// Regions without an id get `line N`.
public enum RegionCSVLoader {
    /// Parses the whole file's bytes; `source` names the file in diagnostics.
    public static func load(_ bytes: [UInt8], source: String) -> LoadedRegions {
        var reader = RegionCSVReader(source: source)
        bytes.withUnsafeBytes { reader.read($0) }
        return reader.finish()
    }
}

/// ``RegionCSVLoader`` over a file read in chunks: the regions go straight
/// into a ``RegionTable``, and no more than a chunk's rows are held.
public struct RegionCSVReader {
    private let source: String
    private var rows = DelimitedRowStream()
    private var columns: RegionColumns?
    private var loaded = LoadedRegions(regions: RegionTable(), diagnostics: [])

    /// A reader of the file `source` (named in diagnostics).
    public init(source: String) { self.source = source }

    /// Reads the next bytes of the file.
    public mutating func read(_ chunk: UnsafeRawBufferPointer) {
        for row in rows.rows(in: chunk) { take(row) }
    }

    /// The regions and diagnostics of the whole file.
    public mutating func finish() -> LoadedRegions {
        for row in rows.finish() { take(row) }
        return loaded
    }

    private mutating func take(_ row: DelimitedRow) {
        if columns == nil {
            if let header = RegionColumns(header: row.fields) {
                columns = header
                return
            }
            columns = .positional
        }
        switch columns!.region(from: row) {
        case .success(let region): loaded.regions.append(region)
        case .failure(let problem):
            loaded.diagnostics.append(RegionDiagnostic(source: source, location: "\(row.line)", message: problem.message))
        }
    }
}

/// The columns of a regions CSV.
private struct RegionColumns {
    var id: Int?
    var latitude: Int
    var longitude: Int
    var radius: Int
    var task: Int?

    /// `id,lat,lon,radius,task`, for a file without a header.
    static let positional = RegionColumns(id: 0, latitude: 1, longitude: 2, radius: 3, task: 4)

    /// The columns a header row names, or `nil` if it is not a header.
    init?(header fields: [String]) {
        let names = fields.map(CSVField.normalize)
        guard let latitude = CSVField.latitude.column(in: names),
            let longitude = CSVField.longitude.column(in: names),
            let radius = CSVField.radius.column(in: names)
        else { return nil }
        self.init(
            id: CSVField.region.column(in: names), latitude: latitude, longitude: longitude, radius: radius,
            task: CSVField.task.column(in: names))
    }

    private init(id: Int?, latitude: Int, longitude: Int, radius: Int, task: Int?) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.task = task
    }

    /// Why a row is not a region.
    struct Problem: Error {
        var message: String
    }

    /// The region a data row describes.
    func region(from row: DelimitedRow) -> Result<Region, Problem> {
        let fields = row.fields
        let needed = max(latitude, longitude, radius)
        guard fields.count > needed else {
            return .failure(Problem(message: "expected at least \(needed + 1) fields, got \(fields.count)"))
        }
        guard let lat = row.number(at: latitude) else {
            return .failure(Problem(message: "latitude is not a number: \"\(fields[latitude])\""))
        }
        guard let lon = row.number(at: longitude) else {
            return .failure(Problem(message: "longitude is not a number: \"\(fields[longitude])\""))
        }
        guard let metres = row.number(at: radius) else {
            return .failure(Problem(message: "radius is not a number: \"\(fields[radius])\""))
        }
        if let problem = Region.circleProblem(latitude: lat, longitude: lon, radius: metres) {
            return .failure(Problem(message: problem))
        }
        func text(_ column: Int?) -> String? {
            column.flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }
        }
        return .success(
            Region(
                id: text(id) ?? "line \(row.line)",
                shape: .circle(centre: Coordinate(latitude: lat, longitude: lon), radius: metres),
                task: text(task)))
    }
}
