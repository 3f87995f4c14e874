import FeedParsing
import GeoCore
import Geofencing

/// Reads regions from a KML document's placemarks (Google My Maps' "Export
/// to KML", Google Earth's "Save Place As", QGIS).
///
/// - A `Point` is a circle of its `<Data name="radius">` metres, else of the
///   point radius given (as GPX waypoints are).
/// - A `Polygon`, or the polygons of a `MultiGeometry`: an ``Area`` (a
///   ring written open is closed).
/// The id is the placemark's `name`, else `Placemark[i]`; a `<Data
/// name="task">` links the region to a task. A placemark without a point
/// or polygon (a `LineString`: a path, not a place), or with unusable
/// numbers, is reported at its line and skipped; the others load.
public enum RegionKMLLoader {
    /// The regions of `bytes`; `source` names the file in diagnostics.
    public static func load(_ bytes: [UInt8], source: String, pointRadius: Double) -> LoadedRegions {
        let document = KMLPlacemarks(bytes)
        var diagnostics = document.problems.map { RegionDiagnostic(source: source, location: "\($0.line)", message: $0.message) }
        var regions: [Region] = []
        for (index, placemark) in document.placemarks.enumerated() {
            switch shape(of: placemark, pointRadius: pointRadius) {
            case .success(let shape):
                let id = placemark.name ?? "Placemark[\(index)]"
                regions.append(Region(id: id, shape: shape, task: placemark.data["task"].flatMap { $0.isEmpty ? nil : $0 }))
            case .failure(let problem):
                diagnostics.append(RegionDiagnostic(source: source, location: "\(placemark.line)", message: problem.message))
            }
        }
        if document.placemarks.isEmpty, diagnostics.isEmpty {
            diagnostics.append(RegionDiagnostic(source: source, location: "1", message: "a KML document without a Placemark"))
        }
        return LoadedRegions(regions: RegionTable(regions), diagnostics: diagnostics)
    }

    /// The shape of a placemark: its polygons as one area, else its first
    /// point as a circle; or why it has none.
    static func shape(of placemark: KMLPlacemark, pointRadius: Double) -> Result<Shape, RegionGeoJSONLoader.Problem> {
        let named = placemark.name.map { "Placemark \"\($0)\"" } ?? "a Placemark"
        if let tuple = placemark.unreadableCoordinates.first {
            return .failure(.init(message: "\(named): coordinates \"\(tuple)\" are not lon,lat[,alt]"))
        }
        var polygons: [[[Coordinate]]] = []
        var point: Coordinate?
        for geometry in placemark.geometries {
            switch geometry {
            case .polygon(let rings):
                polygons.append(rings.map { ring in ring.count >= 3 && ring.first != ring.last ? ring + [ring[0]] : ring })
            case .point(let position):
                if point == nil { point = position }
            case .path:
                break  // a path is no place (below, when it is all there is)
            }
        }
        if !polygons.isEmpty {
            do {
                return .success(.area(try Area(polygons: polygons)))
            } catch {
                return .failure(.init(message: "\(named): " + RegionGeoJSONLoader.describe(error)))
            }
        }
        if let point {
            let radiusText = placemark.data["radius"] ?? ""
            let radius = radiusText.isEmpty ? pointRadius : Double(radiusText) ?? .nan
            if let problem = Region.circleProblem(latitude: point.latitude, longitude: point.longitude, radius: radius) {
                return .failure(.init(message: "\(named): " + problem))
            }
            return .success(.circle(centre: point, radius: radius))
        }
        if let other = placemark.otherGeometries.first {
            return .failure(.init(message: "\(named) is a \(other), a path, not a place (give a Point or a Polygon)"))
        }
        return .failure(.init(message: "\(named) has no Point or Polygon"))
    }
}
