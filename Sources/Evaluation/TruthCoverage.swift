import Foundation
import GeoCore

/// How much truth an evaluation covers: device-hours (first to last truth
/// point of each device) and kilometres travelled, the denominators of
/// rates such as false entries per 100 device-hours.
public struct TruthCoverage: Hashable, Sendable {
    /// Hours from each device's first truth point to its last, summed.
    public private(set) var deviceHours = 0.0
    /// Kilometres along the truth tracks (straight segments), summed.
    public private(set) var kilometres = 0.0

    /// No truth yet.
    public init() {}

    /// A coverage of `deviceHours` and `kilometres`: one device's, as a
    /// shard's lines keep it.
    public init(deviceHours: Double, kilometres: Double) {
        self.deviceHours = deviceHours
        self.kilometres = kilometres
    }

    /// The coverage of one device's `track`.
    public init(_ track: Track) {
        add(track)
    }

    /// The coverage of every device of `devices`, added in their order.
    public init<Devices: Sequence<TruthCoverage>>(summing devices: Devices) {
        for device in devices { self = adding(device) }
    }

    /// Adds one device's truth track, points in time order.
    public mutating func add<Points: Sequence>(_ points: Points) where Points.Element == TruthPoint {
        var track = Track()
        for point in points { track.add(point) }
        add(track)
    }

    /// Adds one device's truth track, measured as its points came.
    public mutating func add(_ track: Track) {
        guard let first = track.first, let last = track.last else { return }
        deviceHours += last.time.nanoseconds(since: first) / 3.6e12
        kilometres += track.metres / 1000
    }

    /// One device's track measured point by point, in time order.
    public struct Track: Sendable {
        fileprivate var first: Timestamp?
        fileprivate var last: TruthPoint?
        fileprivate var metres = 0.0

        /// Nothing measured yet.
        public init() {}

        /// Adds the track's next point.
        public mutating func add(_ point: TruthPoint) {
            if let last { metres += TruthCoverage.metres(last.coordinate, point.coordinate) } else { first = point.time }
            last = point
        }
    }

    /// The great-circle distance; for points within 0.01° of each other
    /// (about a kilometre) the flat-plane distance at their mean
    /// latitude, which differs from it by less than a millionth.
    fileprivate static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dLat = b.latitude - a.latitude
        let dLon = Geodesy.wrapLongitude(b.longitude - a.longitude)
        guard abs(dLat) < 0.01, abs(dLon) < 0.01, abs(a.latitude) < 85 else { return Geodesy.distance(a, b) }
        let x = dLon * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        return (x * x + dLat * dLat).squareRoot() * Geodesy.metresPerDegree
    }

    /// The coverage of both.
    public func adding(_ other: TruthCoverage) -> TruthCoverage {
        var sum = self
        sum.deviceHours += other.deviceHours
        sum.kilometres += other.kilometres
        return sum
    }

    /// `count` events per 100 device-hours; `nil` without any time covered.
    public func per100DeviceHours(_ count: Int) -> Double? {
        deviceHours > 0 ? Double(count) / deviceHours * 100 : nil
    }
}
