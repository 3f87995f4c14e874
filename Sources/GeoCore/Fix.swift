/// One position report from a feed: where a device was, and when.
///
/// Decoders emit a `Fix` only for a valid position (NMEA status A, fix
/// quality above 0); everything optional is absent when the source did not
/// say. Units: metres, metres per second, degrees clockwise from true north.
public struct Fix: Hashable, Sendable {
    /// When the fix was taken, in UTC; `nil` for GPX points without `<time>`.
    public var time: Timestamp?
    /// Where the device was.
    public var coordinate: Coordinate
    /// Height above mean sea level (NMEA GGA) or the ellipsoid (GPX `ele`), metres.
    public var elevation: Double?
    /// Speed over ground in metres per second.
    public var speed: Double?
    /// Course over ground in degrees, 0..<360.
    public var course: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Horizontal accuracy in metres as the source stated it (gpsd `eph`,
    /// GPX/CSV accuracy columns); see ``effectiveAccuracy``.
    public var accuracy: Double?
    /// The device that produced the fix (CSV column, gpsd device path, file
    /// name); `nil` when the feed has a single unnamed device.
    public var deviceID: DeviceID?

    /// The name of ``deviceID``.
    public var device: String? {
        get { deviceID?.name }
        set { deviceID = newValue.map(DeviceID.init) }
    }

    /// Creates a fix.
    @inlinable
    public init(
        time: Timestamp?, coordinate: Coordinate, elevation: Double? = nil, speed: Double? = nil,
        course: Double? = nil, hdop: Double? = nil, accuracy: Double? = nil, device: String? = nil
    ) {
        self.time = time
        self.coordinate = coordinate
        self.elevation = elevation
        self.speed = speed
        self.course = course
        self.hdop = hdop
        self.accuracy = accuracy
        self.deviceID = device.map(DeviceID.init)
    }

    /// Metres of horizontal accuracy assumed per unit of HDOP when the source
    /// gives no accuracy of its own (DESIGN.md: HDOP × 5 m).
    public static let metresPerHDOP = 5.0

    /// The horizontal accuracy used by the geofence rules: the source's own
    /// figure, else HDOP × 5 m, else `nil` (unknown).
    public var effectiveAccuracy: Double? {
        if let accuracy { return accuracy }
        if let hdop { return hdop * Self.metresPerHDOP }
        return nil
    }
}
