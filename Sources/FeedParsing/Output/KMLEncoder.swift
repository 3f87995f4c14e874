import GeoCore

/// Writes fixes as a KML 2.2 document that Google Earth opens as tracks:
/// one `Placemark` per run of fixes from the same device (named after
/// it), holding a `gx:MultiTrack` of `gx:Track`s.
///
/// KML lists a track's times, then its positions (`gx:coord`, `lon lat
/// [ele]`), then its per-point data, so the encoder holds up to
/// ``segmentLength`` fixes and writes them as one `gx:Track`; the
/// multitrack joins the segments (`gx:interpolate`), and memory stays flat
/// whatever the feed's length. Speed (m/s), course (degrees), HDOP and
/// accuracy (m) go in the track's `ExtendedData` arrays (declared in the
/// document's `Schema`), which ``KMLDecoder`` reads back; an array is
/// written only where a fix of the segment has its value, with an empty
/// `gx:value` for a fix without one. Latitude and longitude have 9
/// decimals (0.1 mm), the other numbers 3. The device is the placemark's
/// `name`, which the decoder does not turn back into ``Fix/device``: write
/// one device's fixes together. KML has no invalid fix: `valid: false`
/// writes nothing.
public struct KMLEncoder: FeedEncoder {
    /// The most fixes held, and written as one `gx:Track`.
    public static let segmentLength = 1000

    /// The document's `name`.
    public var documentName: String
    /// Whether a placemark is open, and for which device.
    private var openDevice: String??
    /// The fixes of the open segment.
    private var segment: [Fix] = []

    /// Creates an encoder.
    public init(documentName: String = "Repeat") {
        self.documentName = documentName
    }

    /// Always ``FeedFormat/kml``.
    public var format: FeedFormat { .kml }

    /// The XML declaration, the `<kml>` and `<Document>` start tags and
    /// the schema of the track data.
    public func appendHeader(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        bytes.append(
            contentsOf: "\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n"
                .utf8)
        bytes.append(contentsOf: "<Document><name>".utf8)
        GPXEncoder.appendEscaped(documentName, to: &bytes)
        bytes.append(contentsOf: "</name>\n<Schema id=\"fix\">".utf8)
        for array in DataArray.allCases {
            bytes.append(contentsOf: "<gx:SimpleArrayField name=\"\(array.rawValue)\" type=\"float\">".utf8)
            bytes.append(contentsOf: "<displayName>\(array.displayName)</displayName></gx:SimpleArrayField>".utf8)
        }
        bytes.append(contentsOf: "</Schema>\n".utf8)
    }

    /// Holds a fix, writing the segment when it is full and opening a
    /// placemark first when the device changed.
    public mutating func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        guard valid else { return }
        if openDevice != .some(fix.device) {
            closePlacemark(in: &bytes)
            bytes.append(contentsOf: "<Placemark>".utf8)
            if let device = fix.device {
                bytes.append(contentsOf: "<name>".utf8)
                GPXEncoder.appendEscaped(device, to: &bytes)
                bytes.append(contentsOf: "</name>".utf8)
            }
            bytes.append(contentsOf: "<gx:MultiTrack><gx:interpolate>1</gx:interpolate>\n".utf8)
            openDevice = .some(fix.device)
        }
        segment.append(fix)
        if segment.count == Self.segmentLength { writeSegment(to: &bytes) }
    }

    /// Writes the held fixes and closes the open placemark and the document.
    public mutating func appendFooter(to bytes: inout [UInt8]) {
        closePlacemark(in: &bytes)
        bytes.append(contentsOf: "</Document>\n</kml>\n".utf8)
    }

    private mutating func closePlacemark(in bytes: inout [UInt8]) {
        guard openDevice != nil else { return }
        writeSegment(to: &bytes)
        bytes.append(contentsOf: "</gx:MultiTrack></Placemark>\n".utf8)
        openDevice = nil
    }

    /// Writes the held fixes as one `gx:Track`.
    private mutating func writeSegment(to bytes: inout [UInt8]) {
        guard !segment.isEmpty else { return }
        bytes.append(contentsOf: "<gx:Track>\n".utf8)
        for fix in segment {
            if let time = fix.time {
                bytes.append(contentsOf: "<when>".utf8)
                RFC3339.append(time, to: &bytes)
                bytes.append(contentsOf: "</when>\n".utf8)
            } else {
                bytes.append(contentsOf: "<when/>\n".utf8)
            }
        }
        for fix in segment {
            bytes.append(contentsOf: "<gx:coord>".utf8)
            DecimalText.append(fix.coordinate.longitude, decimals: 9, to: &bytes)
            bytes.append(0x20)
            DecimalText.append(fix.coordinate.latitude, decimals: 9, to: &bytes)
            if let elevation = fix.elevation, elevation.isFinite {
                bytes.append(0x20)
                DecimalText.append(elevation, decimals: 3, to: &bytes)
            }
            bytes.append(contentsOf: "</gx:coord>\n".utf8)
        }
        let arrays = DataArray.allCases.filter { array in segment.contains { array.value(of: $0) != nil } }
        if !arrays.isEmpty {
            bytes.append(contentsOf: "<ExtendedData><SchemaData schemaUrl=\"#fix\">\n".utf8)
            for array in arrays {
                bytes.append(contentsOf: "<gx:SimpleArrayData name=\"\(array.rawValue)\">".utf8)
                for fix in segment {
                    if let value = array.value(of: fix) {
                        bytes.append(contentsOf: "<gx:value>".utf8)
                        DecimalText.append(value, decimals: 3, to: &bytes)
                        bytes.append(contentsOf: "</gx:value>".utf8)
                    } else {
                        bytes.append(contentsOf: "<gx:value/>".utf8)
                    }
                }
                bytes.append(contentsOf: "</gx:SimpleArrayData>\n".utf8)
            }
            bytes.append(contentsOf: "</SchemaData></ExtendedData>\n".utf8)
        }
        bytes.append(contentsOf: "</gx:Track>\n".utf8)
        segment.removeAll(keepingCapacity: true)
    }

    /// The per-point data a track carries besides time and position.
    private enum DataArray: String, CaseIterable {
        case speed, course, hdop, accuracy

        var displayName: String {
            switch self {
            case .speed: "Speed (m/s)"
            case .course: "Course (degrees)"
            case .hdop: "HDOP"
            case .accuracy: "Accuracy (m)"
            }
        }

        func value(of fix: Fix) -> Double? {
            let value: Double? =
                switch self {
                case .speed: fix.speed
                case .course: fix.course
                case .hdop: fix.hdop
                case .accuracy: fix.accuracy
                }
            return value.flatMap { $0.isFinite ? $0 : nil }
        }
    }
}
