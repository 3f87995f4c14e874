import Foundation
import GeoCore

extension Itinerary {
    /// Reads an itinerary file:
    ///
    /// ```json
    /// {"timeZone": "Europe/Berlin", "home": "Home", "profile": "car",
    ///  "places": [{"name": "Home", "lat": 52.50, "lon": 13.42},
    ///             {"name": "Work", "lat": 52.52, "lon": 13.39},
    ///             {"name": "Pharmacy", "lat": 52.5163, "lon": 13.3777}],
    ///  "visits": [{"place": "Work", "weekdays": ["mon","tue","wed","thu","fri"], "from": "09:00", "to": "17:00"},
    ///             {"place": "Pharmacy", "every": "10d-20d", "stay": "10m"}]}
    /// ```
    ///
    /// - `timeZone`: an IANA identifier; default `UTC`.
    /// - `home`: the name of one of the `places`, where the person is unless visiting.
    /// - `places`: `name` (unique), `lat` (−90…90), `lon` (−180…180).
    /// - `profile` (`walk`, `bike`, `car`: 1.4, 4.5, 13.9 m/s) or `speed`
    ///   (metres per second), not both; default `walk`.
    /// - `visits`: rules of two shapes (default none):
    ///   - `{"place", "weekdays", "from", "to"}`: weekdays `mon`…`sun` (or
    ///     `monday`…), arriving at `from` and leaving at `to`, 24-hour `HH:MM`
    ///     local times, `to` later than `from`;
    ///   - `{"place", "every", "stay"}` with an optional `"at": "HH:MM"`:
    ///     `every` is `MIN-MAX` or a single interval in whole days or weeks
    ///     (`10d-20d`, `2w-3w`, `14d`), from 1 to 1 000 000 days; `stay` is `45s`,
    ///     `10m` or `2h`; `at` is the local time of arrival, by default
    ///     straight after the day's last weekday visit, else 12:00.
    ///
    /// - Throws: ``ItineraryError`` naming the field that is wrong; an
    ///   unknown key or place gets the nearest valid one as a suggestion.
    public init(json: Data) throws(ItineraryError) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw ItineraryError(field: nil, message: "not valid JSON (\(error.localizedDescription))")
        }
        let object = try JSONFields(root, path: nil, keys: ["timeZone", "home", "places", "profile", "speed", "visits"])
        let zoneName = try object.string("timeZone") ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw ItineraryError(
                field: "timeZone", message: "\"\(zoneName)\" is not an IANA time zone: use e.g. Europe/Berlin or UTC")
        }
        var places: [Place] = []
        for (index, element) in try object.requiredArray("places").enumerated() {
            places.append(try Place(JSONFields(element, path: "places[\(index)]", keys: ["name", "lat", "lon"])))
        }
        var rules: [VisitRule] = []
        for (index, element) in (try object.array("visits") ?? []).enumerated() {
            let keys = ["place", "weekdays", "from", "to", "every", "stay", "at"]
            rules.append(try VisitRule(JSONFields(element, path: "visits[\(index)]", keys: keys)))
        }
        try self.init(
            timeZone: zone, places: places, home: object.requiredString("home"), rules: rules, speed: Self.speed(object))
    }

    private static func speed(_ object: JSONFields) throws(ItineraryError) -> Double {
        switch (try object.string("profile"), try object.number("speed")) {
        case (nil, nil):
            return MotionProfile.walk.speed
        case (let profile?, nil):
            guard let speed = MotionProfile(rawValue: profile)?.speed else {
                let names = MotionProfile.allCases.map(\.rawValue)
                throw ItineraryError(
                    field: "profile",
                    message: "\"\(profile)\" is not a profile: use \(names.joined(separator: ", "))"
                        + ItineraryError.suggestion(for: profile, among: names))
            }
            return speed
        case (nil, let speed?):
            return speed
        case (.some, .some):
            throw ItineraryError(field: "speed", message: "give either \"profile\" or \"speed\", not both")
        }
    }
}

extension Itinerary.Place {
    init(_ object: JSONFields) throws(ItineraryError) {
        let name = try object.requiredString("name")
        guard !name.isEmpty else { throw ItineraryError(field: object.field("name"), message: "must not be empty") }
        let latitude = try object.requiredNumber("lat")
        let longitude = try object.requiredNumber("lon")
        guard (-90...90).contains(latitude) else {
            throw ItineraryError(field: object.field("lat"), message: "\(latitude) is not a latitude (−90…90)")
        }
        guard (-180...180).contains(longitude) else {
            throw ItineraryError(field: object.field("lon"), message: "\(longitude) is not a longitude (−180…180)")
        }
        self.init(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }
}
