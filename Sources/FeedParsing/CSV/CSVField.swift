/// The fields a column of a delimited file can hold, and the one table of
/// header names (aliases) each goes by: the CSV feed decoder, the regions
/// loader and `bench`'s positions all read headers through it.
///
/// Names are compared after ``normalize(_:)``, so `Latitude`, `"lat"` and
/// `radius_m` match `latitude`, `lat` and `radiusm`. An alias may belong to
/// fields that different files hold: `id` is a feed's device and a regions
/// file's region; each reader asks only for its own fields.
package enum CSVField: CaseIterable, Sendable {
    case latitude
    case longitude
    /// A full date-time (RFC 3339) or epoch seconds/milliseconds.
    case time
    /// A date (`2024/08/05`, `2024-08-05`), combined with ``clock``.
    case date
    /// A time of day (`18:02:26`, `11:00:01 AM`), read only beside a ``date``.
    case clock
    case elevation
    case speed
    case course
    case hdop
    case accuracy
    /// A feed's device (tracker) id.
    case device
    /// A regions file's region id or name.
    case region
    /// A region's radius in metres.
    case radius
    /// The task a region belongs to.
    case task

    /// The normalized header names of this field.
    package var aliases: Set<String> {
        switch self {
        case .latitude: ["lat", "latitude"]
        case .longitude: ["lon", "lng", "long", "longitude"]
        case .time: ["time", "timestamp", "t", "datetime", "utc", "epoch", "unixtime"]
        case .date: ["date", "utcd", "utcdate", "day"]
        case .clock: ["time", "utct", "utctime", "clock"]
        case .elevation: ["ele", "elevation", "alt", "altitude", "height"]
        case .speed: ["speed", "sog", "velocity"]
        case .course: ["course", "heading", "bearing", "cog", "track"]
        case .hdop: ["hdop"]
        case .accuracy: ["accuracy", "acc", "horizontalaccuracy", "hacc", "eph"]
        case .device: ["device", "deviceid", "id", "tracker", "trackerid", "uid"]
        case .region: ["id", "name", "region", "regionid"]
        case .radius: ["radius", "radiusm", "r", "radiusmetres", "radiusmeters", "radius(m)"]
        case .task: ["task", "taskid"]
        }
    }

    /// The first of `normalizedNames` (see ``normalize(_:)``) that names this field.
    package func column(in normalizedNames: [String]) -> Int? {
        let aliases = self.aliases
        return normalizedNames.firstIndex(where: aliases.contains)
    }

    /// A header name lower-cased, without blanks, quotes, `-`, `_` and `.`.
    package static func normalize(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !" \t\"'-_.".unicodeScalars.contains($0) })
    }
}
