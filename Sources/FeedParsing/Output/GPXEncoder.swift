import GeoCore

/// Writes fixes as a GPX 1.1 document: one `<trk>` per run of fixes from
/// the same device (named after it), one `<trkpt>` per fix.
///
/// A point carries `<ele>`, `<time>` (RFC 3339 UTC, with the fix's own
/// fraction digits) and `<hdop>`; speed (m/s) and course (degrees) go in
/// Garmin's TrackPointExtension v2 (`<gpxtpx:speed>`, `<gpxtpx:course>`),
/// which ``GPXDecoder`` reads back. GPX has no accuracy element: a fix
/// with an accuracy but no HDOP gets HDOP = accuracy / ``Fix/metresPerHDOP``,
/// as for NMEA. Latitude and longitude have 9 decimals (0.1 mm), elevation,
/// speed, course and HDOP 3.
///
/// The device is the track's `<name>`, which the decoder does not turn back
/// into ``Fix/device``. Write one device's fixes together to get one track
/// per device: a change of device closes the track and opens another.
/// GPX has no invalid fix: `valid: false` writes nothing.
public struct GPXEncoder: FeedEncoder {
    /// The `creator` attribute of `<gpx>`.
    public var creator: String
    /// Whether a track is open, and for which device.
    private var openTrack: String??

    /// Creates an encoder.
    public init(creator: String = "Repeat") {
        self.creator = creator
    }

    /// Always ``FeedFormat/gpx``.
    public var format: FeedFormat { .gpx }

    /// The XML declaration and the `<gpx>` start tag with its namespaces.
    public func appendHeader(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        bytes.append(contentsOf: "\n<gpx version=\"1.1\" creator=\"".utf8)
        Self.appendEscaped(creator, to: &bytes)
        bytes.append(contentsOf: #"" xmlns="http://www.topografix.com/GPX/1/1""#.utf8)
        bytes.append(contentsOf: #" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">"#.utf8)
        bytes.append(0x0A)
    }

    /// Appends a `<trkpt>`, opening a track first when the device changed.
    public mutating func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        guard valid else { return }
        if openTrack != .some(fix.device) {
            closeTrack(in: &bytes)
            bytes.append(contentsOf: "<trk>".utf8)
            if let device = fix.device {
                bytes.append(contentsOf: "<name>".utf8)
                Self.appendEscaped(device, to: &bytes)
                bytes.append(contentsOf: "</name>".utf8)
            }
            bytes.append(contentsOf: "<trkseg>\n".utf8)
            openTrack = .some(fix.device)
        }
        bytes.append(contentsOf: #"<trkpt lat=""#.utf8)
        DecimalText.append(fix.coordinate.latitude, decimals: 9, to: &bytes)
        bytes.append(contentsOf: #"" lon=""#.utf8)
        DecimalText.append(fix.coordinate.longitude, decimals: 9, to: &bytes)
        bytes.append(contentsOf: #"">"#.utf8)
        if let elevation = fix.elevation, elevation.isFinite {
            bytes.append(contentsOf: "<ele>".utf8)
            DecimalText.append(elevation, decimals: 3, to: &bytes)
            bytes.append(contentsOf: "</ele>".utf8)
        }
        if let time = fix.time {
            bytes.append(contentsOf: "<time>".utf8)
            RFC3339.append(time, to: &bytes)
            bytes.append(contentsOf: "</time>".utf8)
        }
        if let hdop = fix.hdop ?? fix.accuracy.map({ $0 / Fix.metresPerHDOP }), hdop.isFinite {
            bytes.append(contentsOf: "<hdop>".utf8)
            DecimalText.append(hdop, decimals: 3, to: &bytes)
            bytes.append(contentsOf: "</hdop>".utf8)
        }
        let speed = fix.speed.flatMap { $0.isFinite ? $0 : nil }
        let course = fix.course.flatMap { $0.isFinite ? $0 : nil }
        if speed != nil || course != nil {
            bytes.append(contentsOf: "<extensions><gpxtpx:TrackPointExtension>".utf8)
            if let speed {
                bytes.append(contentsOf: "<gpxtpx:speed>".utf8)
                DecimalText.append(speed, decimals: 3, to: &bytes)
                bytes.append(contentsOf: "</gpxtpx:speed>".utf8)
            }
            if let course {
                bytes.append(contentsOf: "<gpxtpx:course>".utf8)
                DecimalText.append(course, decimals: 3, to: &bytes)
                bytes.append(contentsOf: "</gpxtpx:course>".utf8)
            }
            bytes.append(contentsOf: "</gpxtpx:TrackPointExtension></extensions>".utf8)
        }
        bytes.append(contentsOf: "</trkpt>\n".utf8)
    }

    /// Closes the open track and the document.
    public mutating func appendFooter(to bytes: inout [UInt8]) {
        closeTrack(in: &bytes)
        bytes.append(contentsOf: "</gpx>\n".utf8)
    }

    private mutating func closeTrack(in bytes: inout [UInt8]) {
        guard openTrack != nil else { return }
        bytes.append(contentsOf: "</trkseg></trk>\n".utf8)
        openTrack = nil
    }

    /// Appends text with `&`, `<`, `>`, `"` and `'` as entities (fit for
    /// element content and attribute values alike).
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22: bytes.append(contentsOf: "&quot;".utf8)
            case 0x27: bytes.append(contentsOf: "&apos;".utf8)
            default: bytes.append(byte)
            }
        }
    }
}
