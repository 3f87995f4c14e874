import Foundation
import GeoCore
import Simulation

/// The routine of the DESIGN.md example, in Berlin: work on weekdays, the
/// pharmacy every 10–20 days, by car.
let berlinRoutine = """
    {"timeZone": "Europe/Berlin", "home": "Home", "profile": "car",
     "places": [{"name": "Home", "lat": 52.50, "lon": 13.42}, {"name": "Work", "lat": 52.52, "lon": 13.39},
                {"name": "Pharmacy", "lat": 52.5163, "lon": 13.3777}],
     "visits": [{"place": "Work", "weekdays": ["mon","tue","wed","thu","fri"], "from": "09:00", "to": "17:00"},
                {"place": "Pharmacy", "every": "10d-20d", "stay": "10m"}]}
    """

func itinerary(_ json: String) throws(ItineraryError) -> Itinerary {
    try Itinerary(json: Data(json.utf8))
}

/// The error `json` is refused with, if it is.
func refusal(_ json: String) -> ItineraryError? {
    do {
        _ = try itinerary(json)
        return nil
    } catch {
        return error
    }
}

/// A Timestamp from whole seconds since 1970.
func instant(_ seconds: Int64) -> Timestamp { Timestamp(nanoseconds: seconds * 1_000_000_000) }

/// Seconds from `a` to `b`.
func seconds(from a: Timestamp, to b: Timestamp) -> Double { Double(b.nanoseconds - a.nanoseconds) / 1e9 }

extension Itinerary {
    func place(_ name: String) -> Coordinate { places.first { $0.name == name }!.coordinate }
}

/// Seconds after local midnight of `time` in `zone`.
func localSecondsOfDay(_ time: Timestamp, in zone: TimeZone) -> Int {
    let seconds = Int(time.nanoseconds / 1_000_000_000)
    return (seconds + zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) % 86_400
}
