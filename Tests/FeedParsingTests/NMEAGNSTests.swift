import FeedParsing
import GeoCore
import Testing

/// GNS, the multi-constellation fix sentence, read like GGA.
@Suite("NMEA GNS")
struct NMEAGNSTests {
    /// The three GNS epochs of gpsd's `quectel-eg25-g-2.log` (a PinePhone's
    /// Quectel EG25-G, 2022-09-20, Saint Petersburg), copied from
    /// ../shared/corpus `nmea/gpsd/quectel-eg25-g-2.log` (BSD-2-Clause),
    /// dated with `--date` as the log's own RMC would date them.
    static let quectel = """
        $GNGNS,051347.00,6001.336799,N,03014.169008,E,AAN,09,0.9,16.5,18.0,,,V*55
        $GNGNS,051348.00,6001.336431,N,03014.169236,E,AAN,09,0.9,15.8,18.0,,,V*5A
        $GNGNS,051349.00,6001.336351,N,03014.169007,E,AAN,09,0.9,13.9,18.0,,,V*5D

        """

    @Test("a GNS-only log gives a fix per epoch, with altitude and HDOP")
    func gnsOnlyLogGivesItsFixes() throws {
        let batch = decode(Self.quectel, format: .nmea, options: FeedDecodingOptions(defaultDate: 19_255))
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.count == 3)
        let first = try #require(batch.fixes.first)
        #expect(first.time.map(RFC3339.format) == "2022-09-20T05:13:47.00Z")
        #expect(abs(first.coordinate.latitude - (60 + 1.336799 / 60)) < 1e-12)
        #expect(abs(first.coordinate.longitude - (30 + 14.169008 / 60)) < 1e-12)
        #expect(first.elevation == 16.5 && first.hdop == 0.9)
    }

    @Test("a GNS with every constellation at N is no fix, and says so")
    func gnsWithoutFixIsInvalid() {
        let line = sentence("GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000")
        let batch = decode(line + "\r\n", format: .nmea, options: FeedDecodingOptions(defaultDate: 16_491))
        #expect(batch.fixes.isEmpty)
        #expect(batch.diagnostics.map(\.message).contains { $0.contains("GNS mode NNNN (no fix)") }, "\(batch.diagnostics)")
    }

    @Test("GNS and GGA of one epoch are one fix")
    func gnsBesideGGAIsOneFix() {
        let gns = sentence("GNGNS,123519.00,4807.038,N,01131.000,E,AA,08,0.9,545.4,46.9,,")
        let batch = decode(gga + "\r\n" + gns + "\r\n" + rmc + "\r\n", format: .nmea)
        #expect(batch.fixes.count == 1)
    }
}
