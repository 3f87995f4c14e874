import FeedParsing
import GeoCore
import Testing

/// The FIT encoder's records, read back by the FIT decoder.
@Suite("FIT encoder")
struct FITEncoderTests {
    static func time(_ text: String) -> Timestamp { RFC3339.parse(text)! }

    @Test("fixes come back to FIT's precision: whole seconds, semicircles, 0.2 m, 1 mm/s, whole metres of accuracy")
    func roundTrip() throws {
        let fixes = [
            Fix(
                time: Self.time("2024-05-01T10:00:00Z"), coordinate: Coordinate(latitude: 52.52, longitude: 13.405),
                elevation: 34.3, speed: 2.7504, course: 90, hdop: 1.2, accuracy: 4.4),
            Fix(
                time: Self.time("2024-05-01T10:00:01.75Z"), coordinate: Coordinate(latitude: -33.8568, longitude: 180),
                elevation: -430.1, speed: 0, hdop: 1.5),
            Fix(time: nil, coordinate: Coordinate(latitude: 89.9999999, longitude: -180), elevation: -600, accuracy: 300),
        ]
        var encoder = FITEncoder()
        var bytes: [UInt8] = []
        encoder.appendHeader(to: &bytes)
        for fix in fixes { encoder.append(fix, to: &bytes) }
        encoder.appendFooter(to: &bytes)
        let start = try #require(encoder.rewrittenStart)
        #expect(start.count == 14 && Array(start[8..<12]) == Array(".FIT".utf8))
        let length = Int(start[4]) | Int(start[5]) << 8 | Int(start[6]) << 16 | Int(start[7]) << 24
        #expect(length == bytes.count - 16, "the header gives the data's length")
        #expect(bytes[4..<8].allSatisfy { $0 == 0 }, "until it is rewritten")

        let batch = decode(encode(fixes, with: FITEncoder()), format: nil)
        #expect(batch.diagnostics.isEmpty, "the CRCs match: \(batch.diagnostics)")
        try #require(batch.fixes.count == 3)
        let semicircle = 180.0 / 2_147_483_648.0
        for (decoded, original) in zip(batch.fixes, fixes) {
            #expect(abs(decoded.coordinate.latitude - original.coordinate.latitude) <= semicircle)
            let longitude = decoded.coordinate.longitude - original.coordinate.longitude
            #expect(abs(longitude) <= semicircle || abs(abs(longitude) - 360) <= semicircle)
            #expect(decoded.course == nil && decoded.hdop == nil && decoded.device == nil)
        }
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == ["2024-05-01T10:00:00Z", "2024-05-01T10:00:01Z", nil])
        #expect(batch.fixes.map(\.elevation) == [34.4, -430.2, nil])
        #expect(batch.fixes.map(\.speed) == [2.75, 0, nil])
        // The source's accuracy, else HDOP × 5 m; at most 254 m.
        #expect(batch.fixes.map(\.accuracy) == [4, 8, 254])
    }

    @Test("an epoch without a fix is a record with its time and no position, which the decoder counts")
    func invalidEpoch() {
        let fixes = (0..<3).map { second in
            Fix(
                time: Self.time("2024-05-01T10:00:0\(second)Z"),
                coordinate: Coordinate(latitude: 52.52 + Double(second) * 1e-4, longitude: 13.405))
        }
        let bytes = encode(fixes, with: FITEncoder(), valid: { $0 != 1 })
        let decoder = FITDecoder()
        let batch = decoder.decodeAll(bytes)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.map(\.time) == [fixes[0].time, fixes[2].time])
        #expect(decoder.statistics.ignored == ["record without a position": 1])
    }

    @Test("an empty feed is a FIT file with a header and its CRC")
    func empty() {
        let bytes = encode([], with: FITEncoder())
        #expect(bytes.count == 16)
        let batch = decode(bytes, format: nil)
        #expect(batch.fixes.isEmpty && batch.diagnostics.isEmpty, "\(batch.diagnostics)")
    }
}
