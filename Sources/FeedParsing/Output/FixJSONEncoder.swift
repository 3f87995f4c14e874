import GeoCore

/// Writes fixes as DESIGN.md's `decode` JSON lines into a byte buffer:
/// `{"time":"2025-03-01T10:00:00Z","lat":52.52,"lon":13.4,"ele":34.0,…}`.
///
/// Absent fields are omitted; the time is UTC RFC 3339 with as many
/// fraction digits as the source had. Numbers are written as a person
/// would: rounded to a fixed number of decimals per field — 9 for `lat`
/// and `lon` (0.1 mm), 6 for `ele`, `speed`, `course`, `hdop` and
/// `accuracy` — then the shortest text that reads back as that value, so a
/// unit conversion's noise never shows (`0.06019`, not
/// `0.06019000000000001`; `45.457633333`, not `45.457633333333334`).
/// No Foundation formatting per fix.
public enum FixJSONEncoder {
    /// Appends one fix and a newline.
    public static func append(_ fix: Fix, to bytes: inout [UInt8]) {
        appendFields(fix, to: &bytes)
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    /// Appends one fix with the nearest named place (`decode --places`):
    /// `…,"near":"Pharmacy","near_m":42}` (whole metres from its centre).
    public static func append(_ fix: Fix, near name: String, metres: Double, to bytes: inout [UInt8]) {
        appendFields(fix, to: &bytes)
        bytes.append(contentsOf: #","near":"#.utf8)
        appendString(name, to: &bytes)
        bytes.append(contentsOf: #","near_m":"#.utf8)
        bytes.append(contentsOf: String(Int(metres.rounded())).utf8)
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    private static func appendFields(_ fix: Fix, to bytes: inout [UInt8]) {
        bytes.append(0x7B)
        var first = true
        if let time = fix.time {
            appendKey("time", first: &first, to: &bytes)
            bytes.append(0x22)
            RFC3339.append(time, to: &bytes)
            bytes.append(0x22)
        }
        appendNumber("lat", fix.coordinate.latitude, scale: degreeScale, first: &first, to: &bytes)
        appendNumber("lon", fix.coordinate.longitude, scale: degreeScale, first: &first, to: &bytes)
        appendNumber("ele", fix.elevation, scale: measureScale, first: &first, to: &bytes)
        appendNumber("speed", fix.speed, scale: measureScale, first: &first, to: &bytes)
        appendNumber("course", fix.course, scale: measureScale, first: &first, to: &bytes)
        appendNumber("hdop", fix.hdop, scale: measureScale, first: &first, to: &bytes)
        appendNumber("accuracy", fix.accuracy, scale: measureScale, first: &first, to: &bytes)
        if let device = fix.device {
            appendKey("device", first: &first, to: &bytes)
            appendString(device, to: &bytes)
        }
    }

    /// Appends one waypoint (`decode --waypoints`) and a newline:
    /// `{"name":"…","time":…,"lat":…,"lon":…,"ele":…}`.
    public static func append(_ waypoint: Waypoint, to bytes: inout [UInt8]) {
        bytes.append(0x7B)
        var first = true
        if let name = waypoint.name {
            appendKey("name", first: &first, to: &bytes)
            appendString(name, to: &bytes)
        }
        if let time = waypoint.time {
            appendKey("time", first: &first, to: &bytes)
            bytes.append(0x22)
            RFC3339.append(time, to: &bytes)
            bytes.append(0x22)
        }
        appendNumber("lat", waypoint.coordinate.latitude, scale: degreeScale, first: &first, to: &bytes)
        appendNumber("lon", waypoint.coordinate.longitude, scale: degreeScale, first: &first, to: &bytes)
        appendNumber("ele", waypoint.elevation, scale: measureScale, first: &first, to: &bytes)
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    @inline(__always)
    private static func appendKey(_ key: StaticString, first: inout Bool, to bytes: inout [UInt8]) {
        if !first { bytes.append(0x2C) }
        first = false
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// 10^decimals of latitude and longitude.
    private static let degreeScale = 1e9
    /// 10^decimals of elevation, speed, course, HDOP and accuracy.
    private static let measureScale = 1e6

    @inline(__always)
    private static func appendNumber(
        _ key: StaticString, _ value: Double?, scale: Double, first: inout Bool, to bytes: inout [UInt8]
    ) {
        guard let value, value.isFinite else { return }
        appendKey(key, first: &first, to: &bytes)
        appendDouble(rounded(value, scale: scale), to: &bytes)
    }

    /// `value` rounded to the decimals of `scale`; values too large for
    /// that to matter (or to stay finite) as they are.
    @inline(__always)
    static func rounded(_ value: Double, scale: Double) -> Double {
        abs(value) < 1e15 / scale ? (value * scale).rounded() / scale : value
    }

    /// Appends the shortest round-trip text of a finite double (Swift's
    /// `description`, which fits a small string and does not allocate).
    public static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a JSON string literal with the required escapes.
    public static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        for b in string.utf8 {
            switch b {
            case 0x22, 0x5C:
                bytes.append(0x5C)
                bytes.append(b)
            case 0x0A:
                bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D:
                bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09:
                bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default:
                bytes.append(b)
            }
        }
        bytes.append(0x22)
    }
}
