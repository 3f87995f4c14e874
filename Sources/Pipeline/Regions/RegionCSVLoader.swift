import GeoCore
import Geofencing

/// Reads circular regions from CSV: `id,lat,lon,radius[,task]`.
///
/// Header names are matched loosely (`id`/`name`/`region`, `lat`/
/// `latitude`, `lon`/`lng`/`long`/`longitude`, `radius`/`radius_m`/`r`,
/// `task`); the delimiter is `,`, `;` or tab. Without a recognisable header
/// the columns are taken in that order. A row with a bad number, a radius
/// ≤ 0 or NaN, or a latitude beyond ±90 is reported with its line and
/// skipped. Regions without an id get `line N`.
public enum RegionCSVLoader {
    /// Parses the whole file's bytes; `source` names the file in diagnostics.
    public static func load(_ bytes: [UInt8], source: String) -> LoadedRegions {
        let rows = DelimitedRows(bytes)
        var columns: (id: Int?, lat: Int, lon: Int, radius: Int, task: Int?)?
        var regions: [Region] = []
        var diagnostics: [RegionDiagnostic] = []
        rows.forEachRow { line, fields in
            if columns == nil {
                if let header = headerColumns(fields) {
                    columns = header
                    return
                }
                columns = (0, 1, 2, 3, 4)
            }
            let layout = columns!
            func report(_ message: String) {
                diagnostics.append(RegionDiagnostic(source: source, location: "\(line)", message: message))
            }
            let needed = max(layout.lat, layout.lon, layout.radius)
            guard fields.count > needed else {
                report("expected at least \(needed + 1) fields, got \(fields.count)")
                return
            }
            guard let lat = Double(fields[layout.lat]) else {
                return report("latitude is not a number: \"\(fields[layout.lat])\"")
            }
            guard let lon = Double(fields[layout.lon]) else {
                return report("longitude is not a number: \"\(fields[layout.lon])\"")
            }
            guard let radius = Double(fields[layout.radius]) else {
                return report("radius is not a number: \"\(fields[layout.radius])\"")
            }
            if let problem = Region.circleProblem(latitude: lat, longitude: lon, radius: radius) {
                return report(problem)
            }
            let id = layout.id.flatMap { $0 < fields.count && !fields[$0].isEmpty ? String(fields[$0]) : nil }
            let task = layout.task.flatMap { $0 < fields.count && !fields[$0].isEmpty ? String(fields[$0]) : nil }
            regions.append(Region(
                id: id ?? "line \(line)",
                shape: .circle(centre: Coordinate(latitude: lat, longitude: lon), radius: radius),
                task: task))
        }
        return LoadedRegions(regions: regions, diagnostics: diagnostics)
    }

    /// Column positions from a header row, or `nil` if it is not a header.
    private static func headerColumns(_ fields: [Substring]) -> (id: Int?, lat: Int, lon: Int, radius: Int, task: Int?)? {
        let names = fields.map(normalizedHeader)
        func find(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let lat = find(["lat", "latitude", "y"]),
            let lon = find(["lon", "lng", "long", "longitude", "x"]),
            let radius = find(["radius", "radiusm", "radius_m", "r", "radiusmetres", "radiusmeters", "radius(m)"])
        else { return nil }
        return (find(["id", "name", "region", "regionid", "region_id"]), lat, lon, radius, find(["task", "taskid", "task_id"]))
    }
}
