import FuzzSupport
import GeoCore
import Geofencing
import Pipeline

// libFuzzer target: a `place import` file (GPX waypoints, KML placemarks,
// GeoJSON, Google Takeout's Semantic Location History or CSV, told apart by content
// as the CLI does). Every place kept has a name, a valid centre and a
// positive radius; each name looked up as written is found in the book (or
// is one of several that fit it); and the nearest place to each centre and
// to points around it, through the spatial grid, is the brute force's.
Fuzzer.run { bytes in
    let loaded = LoadedPlaces.load([UInt8](bytes), source: "places.fuzz", defaultRadius: 100)
    blackHole(loaded.diagnostics.map(\.description))
    for place in loaded.places {
        guard !place.name.isEmpty, place.centre.isValid, place.radius > 0, place.radius.isFinite else {
            fatalError("a place that should have been skipped: \(place)")
        }
    }
    let places = Array(loaded.places.prefix(64))
    for place in places.prefix(16) {
        if case .unknown = NamedPlace.lookUp(place.name, in: places) {
            fatalError("\"\(place.name)\", a name of the book, is not found in it")
        }
    }
    let within = 500.0
    let index = NearestPlaces(places: places, within: within)
    var choices = FuzzChoices(bytes)
    for place in places.prefix(16) {
        let offset = Double(choices.below(2_001)) / 1_000_000 - 0.001
        let aside = Coordinate(latitude: place.centre.latitude + offset, longitude: place.centre.longitude - offset)
        for point in [place.centre, aside] where point.isValid {
            let distances = places.map { Geodesy.distance(point, $0.centre) }
            let nearest = distances.min() ?? .infinity
            let found = index.nearest(to: point)
            if nearest <= within * 0.999 {
                guard let found, abs(found.distance - nearest) <= 1e-6 * max(1, nearest) else {
                    fatalError(
                        "at \(point) the grid finds \(String(describing: found)), the brute force a place \(nearest) m away")
                }
            } else if let found, found.distance > within * 1.001 {
                fatalError("at \(point) the grid finds a place \(found.distance) m away, beyond \(within) m")
            }
        }
    }
}
