import GeoCore

/// What a decoder produced from the input fed so far, in input order.
///
/// The caller owns one batch, passes it to every `decode`/`finish` call and
/// drains it in between (``removeAll()`` keeps the capacity), so that a
/// large feed is decoded in constant memory.
public struct FeedBatch: Sendable {
    /// Decoded fixes.
    public var fixes: [Fix] = []
    /// Skipped records, each with a location and a reason.
    public var diagnostics: [FeedDiagnostic] = []
    /// Waypoints (GPX `wpt`), collected only when the options ask for them.
    public var waypoints: [Waypoint] = []
    /// Route points (GPX `rtept`), collected only when the options ask for them.
    public var routePoints: [Waypoint] = []
    /// Receiver epochs that reported no fix but a time (NMEA status V or
    /// fix quality 0, a gpsd TPV without a fix): the feed's clock moves on
    /// without a position, which releases what a reorder buffer holds.
    public var epochsWithoutFix: [EpochWithoutFix] = []

    /// Creates an empty batch.
    public init() {}

    /// Whether the batch holds nothing.
    public var isEmpty: Bool { fixes.isEmpty && diagnostics.isEmpty && waypoints.isEmpty && routePoints.isEmpty }

    /// Empties the batch, keeping its storage for the next chunk.
    public mutating func removeAll() {
        fixes.removeAll(keepingCapacity: true)
        diagnostics.removeAll(keepingCapacity: true)
        waypoints.removeAll(keepingCapacity: true)
        routePoints.removeAll(keepingCapacity: true)
        epochsWithoutFix.removeAll(keepingCapacity: true)
    }
}

/// The time of a receiver epoch that gave no fix, and the device it came from.
public struct EpochWithoutFix: Hashable, Sendable {
    /// The epoch's time.
    public var time: Timestamp
    /// The device, when the feed names one (gpsd's device path).
    public var device: String?

    /// An epoch at `time` from `device`.
    public init(time: Timestamp, device: String? = nil) {
        self.time = time
        self.device = device
    }
}

/// A named point that is not part of the feed (GPX `wpt`); `decode
/// --waypoints` lists them, and they can become regions.
public struct Waypoint: Hashable, Sendable {
    /// The point's `<name>`, if any.
    public var name: String?
    /// Where it is.
    public var coordinate: Coordinate
    /// Its elevation in metres, if given.
    public var elevation: Double?
    /// Its time, if given.
    public var time: Timestamp?

    /// Creates a waypoint.
    public init(name: String?, coordinate: Coordinate, elevation: Double? = nil, time: Timestamp? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
    }
}
