import FeedParsing
import GeoCore
import TestSupport
import Testing

/// Encode → decode with the real decoders gives the same fixes, for every format.
@Suite("Feed encoders: round trips through the decoders")
struct FeedRoundTripTests {
    static let formats: [(any FeedEncoder, RoundTripPrecision)] = [
        (NMEAEncoder(), .nmea),
        (NMEAEncoder(talker: .gn), .nmea),
        (GPXEncoder(), .gpx),
        (CSVEncoder(), .threeDecimals),
        (GPSDEncoder(), .threeDecimals),
        (KMLEncoder(), .kml),
    ]

    @Test("a few thousand seeded random fixes come back, in every format", arguments: 0..<6)
    func randomized(formatIndex: Int) throws {
        let (encoder, precision) = Self.formats[formatIndex]
        let seed = SeededRandom.testSeed(default: 0xE2C0DE)
        print("FeedRoundTripTests seed: \(seed) (set REPEAT_SEED to replay)")
        let devices: [String?] = encoder.format == .nmea ? [nil] : ["dev1", "dev2", nil, #"car "7", north; a|b"#]
        let fixes = randomFixes(count: 3000, seed: seed, devices: devices)
        let bytes = encode(fixes, with: encoder)
        #expect(bytes == encode(fixes, with: encoder), "the same fixes give the same bytes")
        let batch = decode(bytes, format: encoder.format)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics.prefix(3))")
        try #require(batch.fixes.count == fixes.count)
        for (decoded, original) in zip(batch.fixes, fixes) {
            expectRoundTrip(decoded, original, encoder.format, precision)
        }
        // The format sniffer recognises what the encoder wrote.
        #expect(decode(bytes, format: nil).fixes.count == fixes.count)
    }

    @Test("fractional seconds, negative latitude and longitude, the antimeridian", arguments: 0..<6)
    func edgeCases(formatIndex: Int) throws {
        let (encoder, precision) = Self.formats[formatIndex]
        let fixes = [
            // 2025-03-01T10:00:00.25Z, south-west, every field
            Fix(
                time: Timestamp(nanoseconds: 1_740_823_200_250_000_000, fractionDigits: 2),
                coordinate: Coordinate(latitude: -33.856784, longitude: -70.651212), elevation: -12.5, speed: 1.4,
                course: 359.99, hdop: 0.8, accuracy: 3.03, device: "dev1"),
            // +1.75 s, on the antimeridian, east
            Fix(
                time: Timestamp(nanoseconds: 1_740_823_202_000_000_000, fractionDigits: 3),
                coordinate: Coordinate(latitude: -16.5, longitude: 180), accuracy: 6, device: "dev1"),
            // +1 s, on the antimeridian, west; a whole second
            Fix(
                time: Timestamp(nanoseconds: 1_740_823_203_000_000_000),
                coordinate: Coordinate(latitude: 0.000001, longitude: -180), device: "dev2"),
            // just short of 180° east, a millisecond before a minute
            Fix(
                time: Timestamp(nanoseconds: 1_740_823_259_999_000_000, fractionDigits: 3),
                coordinate: Coordinate(latitude: 89.99999999, longitude: 179.99999999), elevation: 0, speed: 0, course: 0,
                device: "dev2"),
        ]
        let batch = decode(encode(fixes, with: encoder), format: encoder.format)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        try #require(batch.fixes.count == fixes.count)
        for (decoded, original) in zip(batch.fixes, fixes) {
            expectRoundTrip(decoded, original, encoder.format, precision)
        }
    }

    @Test("a time that rounds to the next day moves the NMEA date too")
    func nmeaMidnight() throws {
        // 2024-12-31T23:59:59.996Z is written 000000.00 on 010125.
        let fix = Fix(
            time: Timestamp(nanoseconds: 1_735_689_599_996_000_000, fractionDigits: 3),
            coordinate: Coordinate(latitude: 1, longitude: 2))
        let bytes = encode([fix], with: NMEAEncoder(sentences: .rmc))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("$GPRMC,000000.00,A,0100.000000,N,00200.000000,E,,,010125,,,A*"))
        let decoded = try #require(decode(bytes, format: .nmea).fixes.first)
        #expect(decoded.time.map(RFC3339.format) == "2025-01-01T00:00:00.00Z")
    }

    @Test("invalid epochs are written where the format has them and counted by the decoder", arguments: [FeedFormat.nmea, .gpsd])
    func invalidEpochs(format: FeedFormat) throws {
        let fixes = randomFixes(count: 10, seed: 3, devices: [nil])
        let bytes = encode(fixes, with: makeFeedEncoder(format: format), valid: { $0 >= 4 })
        let batch = decode(bytes, format: format)
        #expect(batch.fixes.count == 6)
        #expect(batch.diagnostics.map(\.code) == Array(repeating: .invalidFix, count: 4))
        for (decoded, original) in zip(batch.fixes, fixes[4...]) {
            expectRoundTrip(decoded, original, format, format == .nmea ? .nmea : .threeDecimals)
        }
    }

    @Test("GPX, CSV and KML have no invalid fix: nothing is written", arguments: [FeedFormat.gpx, .csv, .kml])
    func invalidFixesSkipped(format: FeedFormat) {
        let fixes = randomFixes(count: 5, seed: 4, devices: ["a"])
        let bytes = encode(fixes, with: makeFeedEncoder(format: format), valid: { $0 != 2 })
        let batch = decode(bytes, format: format)
        #expect(batch.diagnostics.isEmpty)
        #expect(batch.fixes.map(\.time) == [0, 1, 3, 4].map { fixes[$0].time })
    }

    @Test("a CSV of chosen columns reads back as those fields")
    func csvColumns() throws {
        let encoder = CSVEncoder(columns: [.time, .lat, .lon, .device])
        let fixes = randomFixes(count: 50, seed: 5, devices: ["dev1", "x\"y", "a;b"])
        let bytes = encode(fixes, with: encoder)
        #expect(bytes.starts(with: Array("time,lat,lon,device\n".utf8)))
        let batch = decode(bytes, format: .csv)
        #expect(batch.diagnostics.isEmpty)
        try #require(batch.fixes.count == fixes.count)
        for (decoded, original) in zip(batch.fixes, fixes) {
            var expected = original
            (expected.elevation, expected.speed, expected.course, expected.hdop, expected.accuracy) = (nil, nil, nil, nil, nil)
            expectRoundTrip(decoded, expected, .csv, .threeDecimals)
        }
    }
}
