/// A file that is no feed Repeat reads, told from its first bytes: what it
/// looks like, so the error can say so (`route.xml: not a GPX, KML or TCX
/// file (root element <osm>)`) instead of decoding nothing.
public enum NotAFeed: Equatable, Sendable, CustomStringConvertible {
    /// Zero bytes.
    case empty
    /// A compressed file (gzip, bzip2, xz, zstd): its kind.
    case compressed(String)
    /// An archive (zip): its kind.
    case archive(String)
    /// An image (JPEG, PNG, GIF): its kind.
    case image(String)
    /// A Garmin FIT file where another format was asked for (`--format`).
    case fit
    /// XML whose root element is none of the feeds' (`<gpx>`, `<kml>`,
    /// TCX's `<TrainingCenterDatabase>`).
    case otherXML(root: String)
    /// GeoJSON: places, not a feed.
    case geoJSON
    /// A tasks file (`{"tasks": […]}`): what `--tasks` takes.
    case tasks
    /// Google Takeout's Semantic Location History (`{"timelineObjects": […]}`):
    /// visits to places, which `place import` takes.
    case takeoutTimeline
    /// Other JSON that is no gpsd report (each of gpsd's has a `"class"`).
    case otherJSON
    /// Bytes that are not text; a short escaped excerpt of the first ones.
    case binary(excerpt: String)

    public var description: String {
        switch self {
        case .empty: return "empty file"
        case .compressed(let kind): return "a \(kind)-compressed file, not a feed (decompress it first)"
        case .archive(let kind):
            return "a \(kind) archive, not a feed (extract the feed from it first"
                + (kind == "zip" ? "; a KMZ is a zipped KML: unzip it, give its doc.kml)" : ")")
        case .image(let kind): return "a \(kind) image, not a feed"
        case .fit: return "a Garmin FIT file (leave --format out, or give --format fit)"
        case .otherXML(let root): return "not a GPX, KML or TCX file (root element <\(root)>)"
        case .geoJSON: return "a GeoJSON file: places, not a feed (give it to --regions)"
        case .tasks: return "a tasks file, not a feed (give it to --tasks)"
        case .takeoutTimeline:
            return
                "Google Takeout's Semantic Location History: visits to places, not a feed (repeat-sim place import takes its places; "
                + "Records.json, beside it, is the feed)"
        case .otherJSON: return "JSON that is no gpsd report (each of gpsd's has a \"class\"), not a feed"
        case .binary(let excerpt): return "binary data, not a text feed (it starts \(excerpt))"
        }
    }

    /// What `prefix`, the first bytes of a file (`isWholeFile` when there
    /// are no more), looks like if it is no feed; `nil` when it may be one.
    /// `format` is the format the user asked for (`nil`: detect), so that
    /// XML is only judged where GPX is expected.
    public static func identify(_ prefix: [UInt8], isWholeFile: Bool, format: FeedFormat? = nil) -> NotAFeed? {
        if prefix.isEmpty { return isWholeFile ? .empty : nil }
        if FeedSniffer.isFIT(prefix) { return format == nil || format == .fit ? nil : .fit }
        if let magic = magic(prefix) { return magic }
        if let excerpt = binaryExcerpt(prefix) { return .binary(excerpt: excerpt) }
        if format == nil || format == .gpx || format == .kml || format == .tcx,
            case .named(let root) = XMLRootElement(prefix), !["gpx", "kml", "TrainingCenterDatabase"].contains(root)
        {
            return .otherXML(root: root)
        }
        if format == nil, let json = json(prefix, isWholeFile: isWholeFile) { return json }
        return nil
    }

    private static func magic(_ bytes: [UInt8]) -> NotAFeed? {
        func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
        if starts([0x1F, 0x8B]) { return .compressed("gzip") }
        if starts([0x42, 0x5A, 0x68]) { return .compressed("bzip2") }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .compressed("xz") }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .compressed("zstd") }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return .archive("zip") }
        if starts([0xFF, 0xD8, 0xFF]) { return .image("JPEG") }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .image("PNG") }
        if starts([0x47, 0x49, 0x46, 0x38]) { return .image("GIF") }
        return nil
    }

    /// An escaped excerpt when the bytes hold a NUL or more than 1 % other
    /// control characters (UTF-16 with a byte-order mark is text).
    private static func binaryExcerpt(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return nil }
        let controls = bytes.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C && $0 != 0x1B }
        guard controls.contains(0) || controls.count * 100 > bytes.count else { return nil }
        return "\"" + bytes.prefix(16).map(escaped).joined() + (bytes.count > 16 ? "…" : "") + "\""
    }

    private static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case 0x20..<0x7F where byte != 0x22 && byte != 0x5C: return String(UnicodeScalar(byte))
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }

    /// What a JSON object that is no gpsd report is: GeoJSON, a tasks file,
    /// Google Takeout's Semantic Location History or other JSON; `nil` for a
    /// gpsd report, for Takeout's raw history or Google's Timeline export
    /// (feeds), for no JSON object, or for a first line cut short (a gpsd
    /// report's `"class"` may come after the cut).
    private static func json(_ bytes: [UInt8], isWholeFile: Bool) -> NotAFeed? {
        let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        guard let open = bytes.firstIndex(where: { !blanks.contains($0) }) else { return nil }
        // Google's histories are feeds: none of them has a gpsd report's "class".
        guard FeedSniffer.opensTakeoutHistory(bytes[open...]) != true, FeedSniffer.opensTimeline(bytes[open...]) != true
        else { return nil }
        if bytes[open] == 0x5B {
            // A JSON array of objects (iOS's Timeline export is one of segments).
            guard let element = bytes[(open + 1)...].firstIndex(where: { !blanks.contains($0) }), bytes[element] == 0x7B
            else { return nil }
            return .otherJSON
        }
        guard bytes[open] == 0x7B else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.contains("\"class\"") else { return nil }
        if ["\"FeatureCollection\"", "\"Feature\"", "\"GeometryCollection\""].contains(where: { text.contains($0) }),
            text.contains("\"type\"")
        {
            return .geoJSON
        }
        guard isWholeFile || bytes[open...].contains(0x0A) else { return nil }
        let firstKey = bytes[(open + 1)...].drop { blanks.contains($0) }
        if firstKey.starts(with: Array("\"tasks\"".utf8)) { return .tasks }
        return firstKey.starts(with: Array("\"timelineObjects\"".utf8)) ? .takeoutTimeline : .otherJSON
    }
}
