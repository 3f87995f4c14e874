import FeedParsing
import Foundation
import GeoCore
import Geofencing

/// Reads regions from a GeoJSON FeatureCollection (or a single Feature).
///
/// - `Point` with a `radius` (or `radius_m`) property in metres: a circle.
/// - `Polygon` and `MultiPolygon`: an ``Area`` (rings closed, outer first).
/// The id is the feature's `id`, else its `id`/`name` property, else
/// `features[i]`; a `task` property links the region to a task. A feature
/// with an unusable geometry (radius ≤ 0 or NaN, latitude beyond ±90, an
/// open ring, another geometry type) is reported as `features[i]` and
/// skipped; the others load.
public enum RegionGeoJSONLoader {
    /// Parses the whole file's bytes; `source` names the file in diagnostics.
    public static func load(_ bytes: [UInt8], source: String) -> LoadedRegions {
        var diagnostics: [RegionDiagnostic] = []
        func report(_ location: String, _ message: String) {
            diagnostics.append(RegionDiagnostic(source: source, location: location, message: message))
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            report("1", "not valid JSON: \((error as NSError).userInfo["NSDebugDescription"] ?? error)")
            return LoadedRegions(regions: RegionTable(), diagnostics: diagnostics)
        }
        if let problem = LoadedPlaces.googleExportProblem(root, not: "regions") {
            report("1", problem)
            return LoadedRegions(regions: RegionTable(), diagnostics: diagnostics)
        }
        let features: [Any]
        switch (root as? [String: Any])?["type"] as? String {
        case "FeatureCollection":
            features = ((root as! [String: Any])["features"] as? [Any]) ?? []
        case "Feature":
            features = [root]
        case nil where LoadedPlaces.isTakeoutTimeline(root as? [String: Any]):
            report(
                "1",
                "Google Takeout's Semantic Location History: visits to places, not regions (repeat-sim place import takes its places, "
                    + "for tasks' --at-place)")
            return LoadedRegions(regions: RegionTable(), diagnostics: diagnostics)
        default:
            report("1", "expected a GeoJSON FeatureCollection or Feature")
            return LoadedRegions(regions: RegionTable(), diagnostics: diagnostics)
        }
        var regions: [Region] = []
        for (index, item) in features.enumerated() {
            let location = "features[\(index)]"
            switch region(from: item, index: index) {
            case .success(let region): regions.append(region)
            case .failure(let problem): report(location, problem.message)
            }
        }
        return LoadedRegions(regions: RegionTable(regions), diagnostics: diagnostics)
    }

    /// Why a feature was skipped.
    struct Problem: Error {
        var message: String
    }

    /// The region of one feature (`features[index]`), or why it has none.
    static func region(from item: Any, index: Int) -> Result<Region, Problem> {
        guard let feature = item as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
            let type = geometry["type"] as? String
        else { return .failure(Problem(message: "a feature needs a geometry with a type")) }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let id = text(feature["id"]) ?? text(properties["id"]) ?? text(properties["name"]) ?? "features[\(index)]"
        let task = text(properties["task"])
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            guard let position = coordinates as? [Any], let point = coordinate(position) else {
                return .failure(Problem(message: "a Point needs [lon, lat] coordinates"))
            }
            guard let radius = number(properties["radius"] ?? properties["radius_m"]) else {
                return .failure(Problem(message: "a Point region needs a numeric \"radius\" property in metres"))
            }
            if let problem = Region.circleProblem(latitude: point.latitude, longitude: point.longitude, radius: radius) {
                return .failure(Problem(message: problem))
            }
            return .success(Region(id: id, shape: .circle(centre: point, radius: radius), task: task))
        case "Polygon", "MultiPolygon":
            let polygonsJSON = type == "Polygon" ? [coordinates as Any] : (coordinates as? [Any] ?? [])
            var polygons: [[[Coordinate]]] = []
            for polygonJSON in polygonsJSON {
                guard let ringsJSON = polygonJSON as? [Any] else {
                    return .failure(Problem(message: "\(type) coordinates must be arrays of rings"))
                }
                var rings: [[Coordinate]] = []
                for ringJSON in ringsJSON {
                    guard let positions = ringJSON as? [Any] else {
                        return .failure(Problem(message: "a ring must be an array of [lon, lat] positions"))
                    }
                    var ring: [Coordinate] = []
                    for position in positions {
                        guard let array = position as? [Any], let point = coordinate(array) else {
                            return .failure(Problem(message: "a ring position must be [lon, lat] numbers"))
                        }
                        ring.append(point)
                    }
                    rings.append(ring)
                }
                polygons.append(rings)
            }
            do {
                return .success(Region(id: id, shape: .area(try Area(polygons: polygons)), task: task))
            } catch {
                return .failure(Problem(message: describe(error)))
            }
        default:
            return .failure(
                Problem(message: "geometry type \(type) is not a region (use Point with radius, Polygon or MultiPolygon)"))
        }
    }

    static func describe(_ error: AreaError) -> String {
        switch error {
        case .empty: return "the polygon has no rings"
        case .tooFewVertices(let p, let r): return "polygon \(p) ring \(r) has fewer than 4 positions"
        case .openRing(let p, let r): return "polygon \(p) ring \(r) is open: its last position must repeat the first"
        case .invalidCoordinate(let p, let r, let c):
            return "polygon \(p) ring \(r) has a position outside ±90°/±180°: lat \(c.latitude), lon \(c.longitude)"
        case .aroundPole(let p, let r):
            return "polygon \(p) ring \(r) goes round a pole: close it as RFC 7946 does, along the antimeridian "
                + "to the pole and across it (… [180, 89], [180, 90], [-180, 90], [-180, 89] …)"
        case .noArea: return "it encloses no area: the positions of its outer rings lie on one line, so nothing is ever inside"
        }
    }

    private static func coordinate(_ position: [Any]) -> Coordinate? {
        guard position.count >= 2, let lon = number(position[0]), let lat = number(position[1]) else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let string = value as? String { return Double(string) }
        return nil
    }

    private static func text(_ value: Any?) -> String? {
        if let string = value as? String, !string.isEmpty { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }
}

extension LoadedRegions {
    /// Loads a regions file by its content: GeoJSON when it starts with `{` (or
    /// `[`, JSON that says what it is), KML placemarks (``RegionKMLLoader``)
    /// when its root element is `kml`, GPX waypoints (circles of
    /// `waypointRadius` metres named after them) when it is other XML, else
    /// CSV.
    public static func load(_ bytes: [UInt8], source: String, waypointRadius: Double = 100) -> LoadedRegions {
        if let problem = RegionDiagnostic.notPlaces(bytes, source: source) {
            return LoadedRegions(regions: RegionTable(), diagnostics: [problem])
        }
        // Told by the text's first characters, whatever its encoding.
        let head = TextStart.utf8(bytes)
        switch head.first(where: isSignificant) {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return RegionGeoJSONLoader.load(bytes, source: source)
        case UInt8(ascii: "<") where KMLPlacemarks.isKML(head):
            return RegionKMLLoader.load(bytes, source: source, pointRadius: waypointRadius)
        case UInt8(ascii: "<"):
            let waypoints = LoadedPlaces.gpx(bytes, source: source, radius: waypointRadius)
            return LoadedRegions(regions: RegionTable(waypoints.places.map(\.region)), diagnostics: waypoints.diagnostics)
        default: return RegionCSVLoader.load(bytes, source: source)
        }
    }

    /// Loads the regions file at `path` (`-`: standard input) by its
    /// content, as ``load(_:source:waypointRadius:)`` does, a chunk at a
    /// time: a CSV file goes row by row into the table (ten million regions
    /// never sit in memory as text or rows); GeoJSON, KML and GPX are read
    /// whole.
    /// - Throws: ``FileReadError``.
    public static func load(path: String, waypointRadius: Double = 100) throws -> LoadedRegions {
        var pending: [UInt8] = []
        var csv: RegionCSVReader?
        var readsWhole = false
        try FileByteReader(path: path).forEachChunk { chunk in
            if csv != nil { return csv!.read(chunk) }
            pending.append(contentsOf: chunk)
            guard !readsWhole, let first = TextStart.utf8(pending).first(where: isSignificant) else { return }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "<")
                || RegionDiagnostic.notPlaces(pending, source: path) != nil
            {
                readsWhole = true
            } else {
                csv = RegionCSVReader(source: path)
                pending.withUnsafeBytes { csv!.read($0) }
                pending = []
            }
        }
        if csv != nil { return csv!.finish() }
        return load(pending, source: path, waypointRadius: waypointRadius)
    }

    /// Whether a byte is more than a blank or part of a byte-order mark.
    static func isSignificant(_ byte: UInt8) -> Bool {
        byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0xEF && byte != 0xBB && byte != 0xBF
    }
}
