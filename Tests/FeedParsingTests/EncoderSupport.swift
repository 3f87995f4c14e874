import FeedParsing
import GeoCore
import TestSupport
import Testing

/// Encodes fixes with a fresh copy of `encoder`: header, fixes, footer.
func encode(_ fixes: [Fix], with encoder: some FeedEncoder, valid: (Int) -> Bool = { _ in true }) -> [UInt8] {
    var encoder = encoder
    var bytes: [UInt8] = []
    encoder.appendHeader(to: &bytes)
    for (index, fix) in fixes.enumerated() { encoder.append(fix, valid: valid(index), to: &bytes) }
    encoder.appendFooter(to: &bytes)
    if let start = encoder.rewrittenStart { bytes.replaceSubrange(0..<start.count, with: start) }
    return bytes
}

/// What a format keeps of a fix, and how closely: half a unit of the last
/// digit each encoder writes (see the encoders' documentation).
struct RoundTripPrecision {
    var elevation: Double
    var speed: Double
    var course: Double
    var hdop: Double
    /// Whether the time is rounded to NMEA's centisecond (or second).
    var roundsTimeLikeNMEA = false
    /// Whether the device comes back.
    var keepsDevice = true

    static let nmea = RoundTripPrecision(
        elevation: 0.005, speed: 0.0005 * 1852 / 3600, course: 0.005, hdop: 0.005, roundsTimeLikeNMEA: true, keepsDevice: false)
    static let gpx = RoundTripPrecision(elevation: 0.0005, speed: 0.0005, course: 0.0005, hdop: 0.0005, keepsDevice: false)
    static let threeDecimals = RoundTripPrecision(elevation: 0.0005, speed: 0.0005, course: 0.0005, hdop: 0.0005)
    static let kml = RoundTripPrecision(elevation: 0.0005, speed: 0.0005, course: 0.0005, hdop: 0.0005, keepsDevice: false)
}

/// Checks that `decoded` is `original` read back at `precision`, in the
/// way `format` carries each field.
func expectRoundTrip(
    _ decoded: Fix, _ original: Fix, _ format: FeedFormat, _ precision: RoundTripPrecision,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let label = "\(format): \(describe(original)) came back as \(describe(decoded))"
    #expect(Geodesy.distance(decoded.coordinate, original.coordinate) < 0.01, "\(label)", sourceLocation: sourceLocation)
    #expect(
        decoded.time == expectedTime(original.time, nmea: precision.roundsTimeLikeNMEA), "\(label)",
        sourceLocation: sourceLocation)
    if !precision.roundsTimeLikeNMEA {
        #expect(decoded.time?.fractionDigits == original.time?.fractionDigits, "\(label)", sourceLocation: sourceLocation)
    }
    func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) <= tolerance * (1 + 1e-9) + 1e-9
        default: return false
        }
    }
    #expect(
        close(decoded.elevation, original.elevation, precision.elevation), "elevation: \(label)", sourceLocation: sourceLocation)
    #expect(close(decoded.speed, original.speed, precision.speed), "speed: \(label)", sourceLocation: sourceLocation)
    #expect(close(decoded.course, original.course, precision.course), "course: \(label)", sourceLocation: sourceLocation)
    switch format {
    case .gpsd:
        // TPV has no HDOP: eph carries the effective accuracy.
        #expect(decoded.hdop == nil, "\(label)", sourceLocation: sourceLocation)
        #expect(close(decoded.accuracy, original.effectiveAccuracy, 0.0005), "accuracy: \(label)", sourceLocation: sourceLocation)
    case .csv, .kml, .tcx, .fit, .takeout, .timeline:
        #expect(close(decoded.hdop, original.hdop, precision.hdop), "hdop: \(label)", sourceLocation: sourceLocation)
        #expect(close(decoded.accuracy, original.accuracy, 0.0005), "accuracy: \(label)", sourceLocation: sourceLocation)
    case .nmea, .gpx:
        // No accuracy element: HDOP carries it (accuracy / 5 m).
        #expect(decoded.accuracy == nil, "\(label)", sourceLocation: sourceLocation)
        let hdop = original.hdop ?? original.accuracy.map { $0 / Fix.metresPerHDOP }
        #expect(close(decoded.hdop, hdop, precision.hdop), "hdop: \(label)", sourceLocation: sourceLocation)
    }
    #expect(decoded.device == (precision.keepsDevice ? original.device : nil), "device: \(label)", sourceLocation: sourceLocation)
}

/// NMEA's time: the centisecond for a time with a fraction, else the second.
func expectedTime(_ time: Timestamp?, nmea: Bool) -> Timestamp? {
    guard nmea, let time else { return time }
    let unit: Int64 = time.fractionDigits > 0 ? 10_000_000 : 1_000_000_000
    let shifted = time.nanoseconds + unit / 2
    let rounded = (shifted >= 0 ? shifted / unit : -((-shifted + unit - 1) / unit)) * unit
    return Timestamp(nanoseconds: rounded, fractionDigits: time.fractionDigits > 0 ? 2 : 0)
}

/// `count` seeded random fixes, every field sometimes absent, times rising
/// by 1.1–90 s (distinct NMEA times) from a random moment of 1980–2077 with 0, 1, 2, 3 or 9
/// fraction digits, positions anywhere including the poles and ±180°.
func randomFixes(count: Int, seed: UInt64, devices: [String?]) -> [Fix] {
    var random = SeededRandom(seed: seed)
    var nanoseconds = Int64(random.uniform(315_532_800, 3_400_000_000)) * 1_000_000_000  // 1980…2077
    var fixes: [Fix] = []
    for _ in 0..<count {
        nanoseconds += Int64(random.uniform(1.1, 90) * 1e9)
        let digits = [0, 1, 2, 3, 9][Int(random.next() % 5)]
        var step: Int64 = 1_000_000_000
        for _ in 0..<digits { step /= 10 }
        let time = Timestamp(nanoseconds: nanoseconds / step * step, fractionDigits: UInt8(digits))
        var latitude = random.uniform(-90, 90)
        var longitude = random.uniform(-180, 180)
        switch random.next() % 20 {
        case 0: longitude = 180
        case 1: longitude = -180
        case 2: latitude = [90, -90][Int(random.next() % 2)]
        case 3: longitude = random.uniform(179.99999, 180)
        default: break
        }
        func maybe(_ value: Double) -> Double? { random.next() % 4 == 0 ? nil : value }
        fixes.append(
            Fix(
                time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                elevation: maybe(random.uniform(-430, 8850)), speed: maybe(random.uniform(0, 300)),
                course: maybe(random.uniform(0, 359.99)), hdop: maybe(random.uniform(0.5, 25)),
                accuracy: maybe(random.uniform(1, 500)), device: devices[Int(random.next() % UInt64(devices.count))]))
    }
    return fixes
}
