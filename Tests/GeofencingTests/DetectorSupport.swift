import GeoCore
import Geofencing

/// 2025-03-01T10:00:00Z, the start of every scripted timeline.
let scenarioStart: Int64 = 1_740_823_200

/// A fix `seconds` after ``scenarioStart``.
func fix(
    _ seconds: Double, _ coordinate: Coordinate, accuracy: Double? = nil, hdop: Double? = nil, device: String? = nil
) -> TimedFix {
    TimedFix(
        Fix(
            time: Timestamp(secondsSince1970: Double(scenarioStart) + seconds), coordinate: coordinate,
            hdop: hdop, accuracy: accuracy, device: device))!
}

/// The point `metres` from `centre` towards `bearing`.
func offset(_ centre: Coordinate, _ metres: Double, bearing: Double = 90) -> Coordinate {
    Geodesy.destination(from: centre, bearing: bearing, metres: metres)
}

/// Runs fixes through a detector and collects every transition.
func run(_ detector: inout TransitionDetector, _ fixes: [TimedFix]) -> [Transition] {
    fixes.flatMap { detector.process($0) }
}

/// The Brandenburg Gate, centre of the scripted fences.
let gate = Coordinate(latitude: 52.516275, longitude: 13.377704)
