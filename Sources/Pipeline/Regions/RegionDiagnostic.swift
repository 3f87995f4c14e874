import FeedParsing
import Geofencing

/// A located problem with one region of a regions file: skipped, counted.
public struct RegionDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The file name (or `-`) as given to the loader.
    public var source: String
    /// Where in the file: `line 12` for CSV, `feature 3` for GeoJSON.
    public var location: String
    /// What was wrong and what the loader expected.
    public var message: String

    /// Creates a diagnostic.
    public init(source: String, location: String, message: String) {
        self.source = source
        self.location = location
        self.message = message
    }

    /// `regions.csv:12: radius must be a positive number of metres, got "-5"`.
    public var description: String { "\(source):\(location): \(message)" }
}

/// Regions read from a file, and the problems found on the way.
public struct LoadedRegions: Sendable {
    /// The usable regions, in file order.
    public var regions: RegionTable
    /// One entry per skipped region (or unusable header), in file order.
    public var diagnostics: [RegionDiagnostic]
}

extension RegionDiagnostic {
    /// The diagnostic for a file of places or regions that is an archive,
    /// compressed or not text at all, or `nil` when it may hold some.
    static func notPlaces(_ bytes: [UInt8], source: String) -> RegionDiagnostic? {
        let message: String
        switch NotAFeed.identify(Array(bytes.prefix(4096)), isWholeFile: bytes.count <= 4096, format: .csv) {
        case .archive(let kind):
            message =
                "a \(kind) archive, not places" + (kind == "zip" ? " (a KMZ is a zipped KML: unzip it, give its doc.kml)" : "")
        case .compressed(let kind): message = "a \(kind)-compressed file, not places (decompress it first)"
        case .image(let kind): message = "a \(kind) image, not places"
        case .fit: message = "a Garmin FIT file: a feed, not places"
        case .binary: message = "binary data, not places"
        default: return nil
        }
        return RegionDiagnostic(source: source, location: "1", message: message)
    }
}

extension Region {
    /// Checks a circle's numbers; returns the problem, or `nil` if usable.
    static func circleProblem(latitude: Double, longitude: Double, radius: Double) -> String? {
        if !latitude.isFinite || abs(latitude) > 90 { return "latitude must be within ±90°, got \(latitude)" }
        if !longitude.isFinite || abs(longitude) > 180 { return "longitude must be within ±180°, got \(longitude)" }
        if !(radius > 0) || !radius.isFinite { return "radius must be a positive number of metres, got \(radius)" }
        return nil
    }
}
