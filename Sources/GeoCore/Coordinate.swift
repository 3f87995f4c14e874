/// A position on the Earth in WGS 84 degrees.
///
/// Latitude runs from −90 (south pole) to +90 (north pole), longitude from
/// −180 to +180 (east positive). `Coordinate` does not normalise its values;
/// use ``isValid`` to check a decoded value before trusting it.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double

    /// Creates a coordinate from degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both components are finite and inside their ranges.
    @inlinable public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

extension Coordinate: CustomStringConvertible {
    /// `52.516300,13.377700`: latitude first, six decimals (about 0.1 m).
    public var description: String {
        "\(Self.sixDecimals(latitude)),\(Self.sixDecimals(longitude))"
    }

    private static func sixDecimals(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int64(abs(scaled))
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
