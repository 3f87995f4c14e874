import FeedParsing
import Foundation
import GeoCore
import Geofencing

/// Named places read from a file, and what could not be read.
public struct LoadedPlaces: Sendable {
    /// The places, in file order.
    public var places: [NamedPlace]
    /// One entry per skipped item, in file order.
    public var diagnostics: [RegionDiagnostic]
}

extension LoadedPlaces {
    /// Reads the named places of a file people already have, told apart by
    /// content: GPX waypoints (`<wpt>` with a `<name>`), KML placemarks (a
    /// `Point`, with a `radius` data item or `defaultRadius`; polygons as
    /// GeoJSON's are), GeoJSON features
    /// with a `name` property (a `Point`, with a `radius` property or
    /// `defaultRadius`; a `Polygon` or `MultiPolygon` becomes the circle
    /// around its vertices' centre that holds them all), the places visited
    /// in Google Takeout's Semantic Location History
    /// (``takeoutVisits(_:source:radius:)``), the Home and Work of Google's
    /// on-device Timeline export (``TimelinePlaces``), or CSV
    /// `name,lat,lon[,radius]` with a header. Items without a name or a
    /// usable position are reported and skipped.
    public static func load(_ bytes: [UInt8], source: String, defaultRadius: Double) -> LoadedPlaces {
        if let problem = RegionDiagnostic.notPlaces(bytes, source: source) {
            return LoadedPlaces(places: [], diagnostics: [problem])
        }
        if let timeline = TimelinePlaces(bytes) { return timelinePlaces(timeline, source: source, radius: defaultRadius) }
        // Told by the text's first characters, whatever its encoding; each
        // reader takes the bytes as they are (libxml2 and JSON read UTF-16).
        let head = TextStart.utf8(bytes)
        switch firstSignificantByte(head) {
        case UInt8(ascii: "<") where KMLPlacemarks.isKML(head): return kml(bytes, source: source, radius: defaultRadius)
        case UInt8(ascii: "<"): return gpx(bytes, source: source, radius: defaultRadius)
        case UInt8(ascii: "{"), UInt8(ascii: "["): return geoJSON(bytes, source: source, radius: defaultRadius)
        default: return csv(bytes, source: source, radius: defaultRadius)
        }
    }

    static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
    }

    /// GPX waypoints, through the feed's GPX decoder.
    static func gpx(_ bytes: [UInt8], source: String, radius: Double) -> LoadedPlaces {
        let batch = makeFeedDecoder(format: .gpx, options: FeedDecodingOptions(collectWaypoints: true)).decodeAll(bytes)
        var diagnostics = batch.diagnostics.map {
            RegionDiagnostic(source: source, location: "\($0.location.line)", message: $0.message)
        }
        var places: [NamedPlace] = []
        for (index, waypoint) in batch.waypoints.enumerated() {
            guard let name = waypoint.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
                diagnostics.append(
                    RegionDiagnostic(source: source, location: "wpt[\(index)]", message: "a waypoint without a <name>; skipped"))
                continue
            }
            places.append(NamedPlace(name: name, centre: waypoint.coordinate, radius: radius))
        }
        return LoadedPlaces(places: places, diagnostics: diagnostics)
    }

    /// KML placemarks with a name, as ``RegionKMLLoader`` reads their shapes.
    static func kml(_ bytes: [UInt8], source: String, radius: Double) -> LoadedPlaces {
        let document = KMLPlacemarks(bytes)
        var diagnostics = document.problems.map { RegionDiagnostic(source: source, location: "\($0.line)", message: $0.message) }
        var places: [NamedPlace] = []
        for placemark in document.placemarks {
            guard let name = placemark.name else {
                diagnostics.append(
                    RegionDiagnostic(
                        source: source, location: "\(placemark.line)", message: "a Placemark without a <name>; skipped"))
                continue
            }
            switch RegionKMLLoader.shape(of: placemark, pointRadius: radius) {
            case .success(let shape): places.append(Self.place(named: name, covering: shape))
            case .failure(let problem):
                diagnostics.append(RegionDiagnostic(source: source, location: "\(placemark.line)", message: problem.message))
            }
        }
        return LoadedPlaces(places: places, diagnostics: diagnostics)
    }

    /// GeoJSON features with a name, or the places of a Google Takeout
    /// Semantic Location History file.
    static func geoJSON(_ bytes: [UInt8], source: String, radius: Double) -> LoadedPlaces {
        var diagnostics: [RegionDiagnostic] = []
        let document = try? JSONSerialization.jsonObject(with: Data(bytes))
        if let problem = googleExportProblem(document, not: "named places") {
            return LoadedPlaces(places: [], diagnostics: [RegionDiagnostic(source: source, location: "1", message: problem)])
        }
        let root = document as? [String: Any]
        let features: [Any]
        switch root?["type"] as? String {
        case "FeatureCollection": features = root?["features"] as? [Any] ?? []
        case "Feature": features = [root as Any]
        case nil where isTakeoutTimeline(root):
            return takeoutVisits(root?["timelineObjects"] as? [Any] ?? [], source: source, radius: radius)
        default:
            let problem = document == nil ? "not valid JSON" : "expected a GeoJSON FeatureCollection or Feature"
            return LoadedPlaces(places: [], diagnostics: [RegionDiagnostic(source: source, location: "1", message: problem)])
        }
        var places: [NamedPlace] = []
        for (index, item) in features.enumerated() {
            let properties = (item as? [String: Any])?["properties"] as? [String: Any] ?? [:]
            guard let name = Self.featureName(properties), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                diagnostics.append(
                    RegionDiagnostic(
                        source: source, location: "features[\(index)]", message: "a feature without a \"name\" property; skipped")
                )
                continue
            }
            // Google Takeout gives a saved place it has no position for at 0°, 0°.
            if let geometry = (item as? [String: Any])?["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                let position = geometry["coordinates"] as? [NSNumber], position.count >= 2,
                position[0].doubleValue == 0, position[1].doubleValue == 0
            {
                diagnostics.append(
                    RegionDiagnostic(
                        source: source, location: "features[\(index)]",
                        message: "\"\(name)\" is at 0°, 0°, a position the file does not have; skipped"))
                continue
            }
            // A Point without a radius takes the default.
            var feature = item as? [String: Any] ?? [:]
            if properties["radius"] == nil, properties["radius_m"] == nil {
                feature["properties"] = properties.merging(["radius": radius]) { own, _ in own }
            }
            switch RegionGeoJSONLoader.region(from: feature, index: index) {
            case .success(let region):
                places.append(Self.place(named: name.trimmingCharacters(in: .whitespaces), covering: region.shape))
            case .failure(let problem):
                diagnostics.append(RegionDiagnostic(source: source, location: "features[\(index)]", message: problem.message))
            }
        }
        return LoadedPlaces(places: places, diagnostics: diagnostics)
    }

    /// A feature's name: its `name`, `Name`, `title` or `Title` property,
    /// else the `name` or `Business Name` of its `location` (Google
    /// Takeout's saved places).
    static func featureName(_ properties: [String: Any]) -> String? {
        for key in ["name", "Name", "title", "Title"] {
            if let name = properties[key] as? String, !name.isEmpty { return name }
        }
        let location = (properties["location"] ?? properties["Location"]) as? [String: Any]
        return (location?["name"] ?? location?["Business Name"]) as? String
    }

    /// A circle for a shape: itself, or around an area's vertices, centred
    /// on their mean position. The longitudes of an area across the
    /// antimeridian are averaged east of it (then wrapped); an area that goes
    /// round every longitude (a cap, closed across the pole) is centred on
    /// its pole, since no vertex marks its far side.
    static func place(named name: String, covering shape: Shape) -> NamedPlace {
        switch shape {
        case .circle(let circle):
            return NamedPlace(name: name, centre: circle.centre, radius: circle.radius)
        case .area(let area):
            // The outer rings' vertices, each once (a ring repeats its first at the end).
            let vertices = area.polygons.flatMap { ($0.first ?? []).dropLast() }
            let latitude = vertices.map(\.latitude).reduce(0, +) / Double(vertices.count)
            let straddles = area.boundingBox.crossesAntimeridian
            let eastward = vertices.map { straddles && $0.longitude < 0 ? $0.longitude + 360 : $0.longitude }
            let centre =
                area.boundingBox.longitudeWidth >= 360
                ? Coordinate(latitude: latitude < 0 ? -90 : 90, longitude: 0)
                : Coordinate(
                    latitude: latitude, longitude: Geodesy.wrapLongitude(eastward.reduce(0, +) / Double(vertices.count)))
            let radius = vertices.map { Geodesy.distance(centre, $0) }.max() ?? 1
            return NamedPlace(name: name, centre: centre, radius: max(radius, 1))
        }
    }

    /// CSV with a header naming the name, latitude and longitude columns.
    static func csv(_ bytes: [UInt8], source: String, radius defaultRadius: Double) -> LoadedPlaces {
        let rows = DelimitedRowReader.rows(in: bytes)
        guard let header = rows.first else { return LoadedPlaces(places: [], diagnostics: []) }
        let names = header.fields.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        func column(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let nameColumn = column(["name", "title", "place"]), let latitudeColumn = column(["lat", "latitude"]),
            let longitudeColumn = column(["lon", "lng", "long", "longitude"])
        else {
            let problem = "expected a header naming the name, lat and lon columns (name,lat,lon[,radius])"
            return LoadedPlaces(
                places: [], diagnostics: [RegionDiagnostic(source: source, location: "\(header.line)", message: problem)])
        }
        let radiusColumn = column(["radius", "radius_m"])
        var places: [NamedPlace] = []
        var diagnostics: [RegionDiagnostic] = []
        for row in rows.dropFirst() {
            func field(_ index: Int?) -> String? { index.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } }
            let name = field(nameColumn) ?? ""
            let latitude = row.number(at: latitudeColumn)
            let longitude = row.number(at: longitudeColumn)
            let radiusText = field(radiusColumn) ?? ""
            let radius = radiusText.isEmpty ? defaultRadius : radiusColumn.flatMap(row.number(at:)) ?? .nan
            let problem: String? =
                name.isEmpty
                ? "a row without a name; skipped"
                : latitude == nil || longitude == nil
                    ? "lat and lon must be numbers: \"\(field(latitudeColumn) ?? "")\", \"\(field(longitudeColumn) ?? "")\""
                    : Region.circleProblem(latitude: latitude!, longitude: longitude!, radius: radius)
            if let problem {
                diagnostics.append(RegionDiagnostic(source: source, location: "\(row.line)", message: problem))
                continue
            }
            places.append(NamedPlace(name: name, centre: Coordinate(latitude: latitude!, longitude: longitude!), radius: radius))
        }
        return LoadedPlaces(places: places, diagnostics: diagnostics)
    }
}
