import GeoCore

/// Writes fixes as gpsd JSON `TPV` reports, one per line, as `gpspipe -w`
/// logs them and ``GPSDDecoder`` reads them:
/// `{"class":"TPV","device":"dev1","mode":3,"time":"…","lat":…,"lon":…,"alt":…,"speed":…,"track":…,"eph":…}`.
///
/// `mode` is 3 with an altitude, else 2; an invalid epoch is mode 1 with
/// only the device and time. Absent values are left out. The time is
/// RFC 3339 UTC with the fix's own fraction digits; latitude and longitude
/// have 9 decimals (0.1 mm), the other numbers 3. `eph` is the accuracy,
/// else HDOP × ``Fix/metresPerHDOP``: TPV has no HDOP (gpsd puts it in SKY).
public struct GPSDEncoder: FeedEncoder {
    /// Creates an encoder.
    public init() {}

    /// Always ``FeedFormat/gpsd``.
    public var format: FeedFormat { .gpsd }

    /// gpsd logs need no header.
    public func appendHeader(to bytes: inout [UInt8]) {}

    /// Appends one TPV line.
    public func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"class":"TPV""#.utf8)
        if let device = fix.device {
            bytes.append(contentsOf: #","device":"#.utf8)
            FixJSONEncoder.appendString(device, to: &bytes)
        }
        bytes.append(contentsOf: #","mode":"#.utf8)
        bytes.append(!valid ? 0x31 : fix.elevation == nil ? 0x32 : 0x33)
        if let time = fix.time {
            bytes.append(contentsOf: #","time":""#.utf8)
            RFC3339.append(time, to: &bytes)
            bytes.append(0x22)
        }
        if valid {
            bytes.append(contentsOf: #","lat":"#.utf8)
            DecimalText.append(fix.coordinate.latitude, decimals: 9, to: &bytes)
            bytes.append(contentsOf: #","lon":"#.utf8)
            DecimalText.append(fix.coordinate.longitude, decimals: 9, to: &bytes)
            appendMember(#","alt":"#, fix.elevation, to: &bytes)
            appendMember(#","speed":"#, fix.speed, to: &bytes)
            appendMember(#","track":"#, fix.course, to: &bytes)
            appendMember(#","eph":"#, fix.effectiveAccuracy, to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// gpsd logs need no footer.
    public func appendFooter(to bytes: inout [UInt8]) {}

    private func appendMember(_ key: StaticString, _ value: Double?, to bytes: inout [UInt8]) {
        guard let value, value.isFinite else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        DecimalText.append(value, decimals: 3, to: &bytes)
    }
}
