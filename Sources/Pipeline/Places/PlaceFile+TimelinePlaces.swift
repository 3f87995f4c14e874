import FeedParsing
import Geofencing

extension LoadedPlaces {
    /// The Home and Work of Google's on-device Timeline export, each where
    /// the file names it; a file that names neither is reported.
    static func timelinePlaces(_ timeline: TimelinePlaces, source: String, radius: Double) -> LoadedPlaces {
        guard !timeline.places.isEmpty else {
            let problem =
                "Google's on-device Timeline export (Timeline.json) names no Home or Work, and no other place "
                + "(replay takes it as a FEED)"
            return LoadedPlaces(places: [], diagnostics: [RegionDiagnostic(source: source, location: "1", message: problem)])
        }
        let places = timeline.places.map { NamedPlace(name: $0.name, centre: $0.coordinate, radius: radius) }
        return LoadedPlaces(places: places, diagnostics: [])
    }
}
