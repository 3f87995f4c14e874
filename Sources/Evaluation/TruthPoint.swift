import GeoCore

/// A point of a truth track: where a device really was, and when. The
/// path between two points is the straight segment, latitude, longitude
/// and time interpolated linearly.
public struct TruthPoint: Hashable, Sendable {
    /// When.
    public var time: Timestamp
    /// Where.
    public var coordinate: Coordinate

    /// A point.
    public init(time: Timestamp, coordinate: Coordinate) {
        self.time = time
        self.coordinate = coordinate
    }
}
