import FeedParsing
import Foundation
import GeoCore

extension RouteFile {
    /// A route file that is a document read whole rather than a feed.
    enum DocumentKind {
        case kml
        case geoJSON

        /// The kind the first chunk of a file shows, or `nil` for a feed.
        init?(firstChunk bytes: [UInt8]) {
            if KMLPlacemarks.isKML(bytes) {
                self = .kml
            } else if NotAFeed.identify(bytes, isWholeFile: false) == .geoJSON {
                self = .geoJSON
            } else {
                return nil
            }
        }
    }

    /// The points of a KML document's paths; what does not read is
    /// reported on stderr, located.
    static func kmlPaths(of bytes: [UInt8], name: String) -> [Point] {
        let document = KMLPlacemarks(bytes)
        for problem in document.problems { Console.warn("\(name):\(problem.line): \(problem.message)") }
        var tracks: [Point] = []
        var lines: [Point] = []
        for placemark in document.placemarks {
            for tuple in placemark.unreadableCoordinates {
                Console.warn("\(name):\(placemark.line): coordinates \"\(tuple)\" are not lon,lat[,alt]; left out")
            }
            for case .path(let path) in placemark.geometries {
                let points = path.map { Point(coordinate: $0.coordinate, time: $0.time) }
                if path.contains(where: { $0.time != nil }) { tracks += points } else { lines += points }
            }
        }
        // GPSBabel writes a track twice, as a gx:Track and as a LineString.
        return tracks.isEmpty ? lines : tracks
    }

    /// The points of a GeoJSON document's `LineString`s and
    /// `MultiLineString`s (a `Feature`'s, a `FeatureCollection`'s, a
    /// `GeometryCollection`'s or a bare geometry), in order, with the times
    /// of a feature's `coordTimes` property where it gives one per point
    /// (as `togeojson` writes them from GPX and KML). What does not read is
    /// reported on stderr.
    static func geoJSONLines(of bytes: [UInt8], name: String) -> [Point] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            Console.warn("\(name): not valid JSON")
            return []
        }
        var points: [Point] = []
        func add(_ geometry: Any?, times: Any?) {
            guard let geometry = geometry as? [String: Any] else { return }
            switch geometry["type"] as? String {
            case "LineString":
                points += line(geometry["coordinates"], times: times as? [String], name: name)
            case "MultiLineString":
                let lines = geometry["coordinates"] as? [Any] ?? []
                let times = times as? [[String]]
                for (index, coordinates) in lines.enumerated() {
                    points += line(coordinates, times: times.flatMap { index < $0.count ? $0[index] : nil }, name: name)
                }
            case "GeometryCollection":
                for member in geometry["geometries"] as? [Any] ?? [] { add(member, times: nil) }
            default:
                break
            }
        }
        func addFeature(_ feature: Any) {
            let object = feature as? [String: Any]
            add(object?["geometry"], times: (object?["properties"] as? [String: Any])?["coordTimes"])
        }
        let object = root as? [String: Any]
        switch object?["type"] as? String {
        case "FeatureCollection": (object?["features"] as? [Any] ?? []).forEach(addFeature)
        case "Feature": addFeature(root)
        default: add(root, times: nil)
        }
        return points
    }

    /// The points of one line's `[lon, lat(, alt)]` positions, timed when
    /// `times` has one per position.
    private static func line(_ coordinates: Any?, times: [String]?, name: String) -> [Point] {
        let positions = coordinates as? [Any] ?? []
        let times = times?.count == positions.count ? times : nil
        var points: [Point] = []
        for (index, position) in positions.enumerated() {
            guard let numbers = position as? [Any], numbers.count >= 2, let longitude = (numbers[0] as? NSNumber)?.doubleValue,
                let latitude = (numbers[1] as? NSNumber)?.doubleValue
            else {
                Console.warn("\(name): a position that is not [lon, lat] numbers; left out")
                continue
            }
            let time = times.flatMap { RFC3339.parse($0[index]) }
            points.append(Point(coordinate: Coordinate(latitude: latitude, longitude: longitude), time: time))
        }
        return points
    }
}
