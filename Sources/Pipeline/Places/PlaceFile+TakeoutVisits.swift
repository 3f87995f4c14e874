import FeedParsing
import Foundation
import GeoCore
import Geofencing

extension LoadedPlaces {
    /// Whether a JSON document is Google Takeout's Semantic Location
    /// History (`Location History/Semantic Location History/YYYY/YYYY_MONTH.json`):
    /// an object with a `timelineObjects` array.
    static func isTakeoutTimeline(_ root: [String: Any]?) -> Bool {
        root?["timelineObjects"] is [Any]
    }

    /// What a JSON document from Google's location exports that holds no
    /// places is, said for `place import` (Takeout's Records.json) and
    /// `--regions` (Records.json or the on-device Timeline export, both
    /// feeds); `nil` for any other document.
    static func googleExportProblem(_ root: Any?, not what: String) -> String? {
        if (root as? [String: Any])?["locations"] is [Any] {
            return "Google Takeout's location history (Records.json): positions, not \(what) (replay takes it as a FEED)"
        }
        return GoogleLocationExports.isDeviceTimeline(root) ? GoogleLocationExports.timelineProblem(not: what) : nil
    }

    /// The places visited in a Google Takeout Semantic Location History
    /// file: each `placeVisit`'s `location`, named by its `name` or, when
    /// Google knew no name, its `address`, at its `latitudeE7` and
    /// `longitudeE7`, with `radius`. A place visited again (the same
    /// `placeId`, else the same name) is taken once, where it was first
    /// visited. The movements between visits (`activitySegment`) and the
    /// other places Google thought a visit might have been
    /// (`otherCandidateLocations`) are not places visited, and are left out.
    /// A visit without a name, an address or a position is reported and
    /// skipped.
    static func takeoutVisits(_ objects: [Any], source: String, radius: Double) -> LoadedPlaces {
        var places: [NamedPlace] = []
        var diagnostics: [RegionDiagnostic] = []
        var visited: Set<String> = []
        for (index, object) in objects.enumerated() {
            guard let visit = (object as? [String: Any])?["placeVisit"] as? [String: Any] else { continue }
            let location = visit["location"] as? [String: Any] ?? [:]
            func problem(_ message: String) {
                diagnostics.append(
                    RegionDiagnostic(source: source, location: "timelineObjects[\(index)].placeVisit", message: message))
            }
            let named = [location["name"], location["address"]].lazy.compactMap { $0 as? String }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
            guard let name = named else {
                problem("a visit to a place without a name or an address; skipped")
                continue
            }
            guard let latitudeE7 = location["latitudeE7"] as? NSNumber, let longitudeE7 = location["longitudeE7"] as? NSNumber
            else {
                problem("\"\(name)\" has no latitudeE7 and longitudeE7; skipped")
                continue
            }
            let latitude = latitudeE7.doubleValue / 1e7, longitude = longitudeE7.doubleValue / 1e7
            if let invalid = Region.circleProblem(latitude: latitude, longitude: longitude, radius: radius) {
                problem("\"\(name)\": \(invalid); skipped")
                continue
            }
            let identity = (location["placeId"] as? String).map { "id:" + $0 } ?? "name:" + NamedPlace.key(name)
            guard visited.insert(identity).inserted else { continue }
            places.append(NamedPlace(name: name, centre: Coordinate(latitude: latitude, longitude: longitude), radius: radius))
        }
        return LoadedPlaces(places: places, diagnostics: diagnostics)
    }
}
