/// How fast a route is followed: a person walking, cycling or driving.
///
/// The speeds are typical cruising speeds, constant along the route (stops
/// are separate: ``TimedPath/following(_:speed:stop:from:)``).
public enum MotionProfile: String, CaseIterable, Sendable {
    /// 1.4 m/s (5 km/h).
    case walk
    /// 4.5 m/s (16 km/h).
    case bike
    /// 13.9 m/s (50 km/h, town traffic).
    case car

    /// The profile's speed in metres per second.
    public var speed: Double {
        switch self {
        case .walk: return 1.4
        case .bike: return 4.5
        case .car: return 13.9
        }
    }
}
