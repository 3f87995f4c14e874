import FeedParsing
import GeoCore
import Testing

/// The exact bytes each encoder writes, and what the decoders make of them.
@Suite("Feed encoders: output")
struct FeedEncoderOutputTests {
    /// NMEA 0183's textbook fix: 1994-03-23T12:35:19Z, Munich, 22.4 knots at 84.4°.
    static let munich = Fix(
        time: Timestamp(nanoseconds: 764_426_119_000_000_000),
        coordinate: Coordinate(latitude: 48.1173, longitude: 11 + 31.0 / 60),
        elevation: 545.4, speed: 22.4 * 1852 / 3600, course: 84.4, hdop: 0.9, device: #"<a & "b">"#)

    @Test("NMEA: RMC, GGA and GSA with checksums and CRLF")
    func nmeaValid() {
        let text = String(decoding: encode([Self.munich], with: NMEAEncoder()), as: UTF8.self)
        #expect(
            text == """
                $GPRMC,123519,A,4807.038000,N,01131.000000,E,22.400,84.40,230394,,,A*4C\r
                $GPGGA,123519,4807.038000,N,01131.000000,E,1,08,0.90,545.40,M,,M,,*52\r
                $GPGSA,A,3,,,,,,,,,,,,,,0.90,*0B\r

                """)
    }

    @Test("NMEA: an invalid epoch has the time and date only (RMC V, GGA quality 0, GSA mode 1); talker GN")
    func nmeaInvalid() {
        var fix = Self.munich
        fix.time = Timestamp(nanoseconds: 764_426_119_250_000_000, fractionDigits: 3)
        let text = String(decoding: encode([fix], with: NMEAEncoder(talker: .gn), valid: { _ in false }), as: UTF8.self)
        #expect(
            text == """
                $GNRMC,123519.25,V,,,,,,,230394,,,N*66\r
                $GNGGA,123519.25,,,,,0,,,,M,,M,,*5C\r
                $GNGSA,A,1,,,,,,,,,,,,,,,*00\r

                """)
    }

    @Test("NMEA: one encoder dates each epoch by its own day, back and forth across midnights")
    func nmeaDates() {
        let midnight: Int64 = 764_467_200 * 1_000_000_000  // 1994-03-24T00:00:00Z
        let offsets: [Int64] = [-1, 0, 86_399, -86_401, 86_400 * 365]  // seconds from midnight
        let fixes = offsets.map {
            Fix(time: Timestamp(nanoseconds: midnight + $0 * 1_000_000_000), coordinate: Self.munich.coordinate)
        }
        let text = String(decoding: encode(fixes, with: NMEAEncoder(sentences: .rmc)), as: UTF8.self)
        #expect(
            text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false)[9] }
                == ["230394", "240394", "240394", "220394", "240395"])
    }

    @Test("NMEA: an accuracy without HDOP is written as HDOP = accuracy / 5 m, in GGA and in GSA alone")
    func nmeaHDOPFromAccuracy() throws {
        var fix = Self.munich
        (fix.hdop, fix.accuracy) = (nil, 6.5)
        for sentences in [NMEAEncoder.Sentences.all, [.rmc, .gsa]] {
            let decoded = try #require(decode(encode([fix], with: NMEAEncoder(sentences: sentences)), format: .nmea).fixes.first)
            #expect(decoded.hdop == 1.3)
            #expect(decoded.effectiveAccuracy == 6.5)
        }
    }

    @Test("NMEA: the decoder checks every checksum the encoder writes")
    func nmeaChecksums() {
        let bytes = encode([Self.munich], with: NMEAEncoder(sentences: .rmc))
        #expect(decode(bytes, format: .nmea).fixes.count == 1)
        var corrupted = bytes
        corrupted[corrupted.firstIndex(of: UInt8(ascii: "A"))!] = UInt8(ascii: "V")
        let batch = decode(corrupted, format: .nmea)
        #expect(batch.fixes.isEmpty)
        #expect(batch.diagnostics.map(\.code) == [.badChecksum])
    }

    @Test("GPX 1.1: a track named after its (escaped) device; speed and course in TrackPointExtension")
    func gpx() throws {
        var second = Self.munich
        second.device = "dev2"
        second.time = nil
        (second.speed, second.course, second.elevation, second.hdop) = (nil, nil, nil, nil)
        let bytes = encode([Self.munich, second], with: GPXEncoder())
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="Repeat" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
                <trk><name>&lt;a &amp; &quot;b&quot;&gt;</name><trkseg>
                <trkpt lat="48.117300000" lon="11.516666667"><ele>545.400</ele><time>1994-03-23T12:35:19Z</time><hdop>0.900</hdop>\
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>11.524</gpxtpx:speed><gpxtpx:course>84.400</gpxtpx:course>\
                </gpxtpx:TrackPointExtension></extensions></trkpt>
                </trkseg></trk>
                <trk><name>dev2</name><trkseg>
                <trkpt lat="48.117300000" lon="11.516666667"></trkpt>
                </trkseg></trk>
                </gpx>

                """)
        let batch = decode(bytes, format: .gpx)
        #expect(batch.diagnostics.isEmpty)
        #expect(batch.fixes.map(\.time) == [Self.munich.time, nil])
        #expect(batch.fixes.first?.speed == 11.524)
    }

    @Test("CSV: every column, empty cells for absent values, a quoted device")
    func csv() {
        var second = Self.munich
        second.time = Timestamp(nanoseconds: 764_426_120_500_000_000, fractionDigits: 1)
        (second.elevation, second.speed, second.course, second.hdop, second.device) = (nil, nil, nil, nil, "a,b")
        second.accuracy = 4
        #expect(
            String(decoding: encode([Self.munich, second], with: CSVEncoder()), as: UTF8.self) == """
                time,lat,lon,ele,speed,course,hdop,accuracy,device
                1994-03-23T12:35:19Z,48.117300000,11.516666667,545.400,11.524,84.400,0.900,,"<a & ""b"">"
                1994-03-23T12:35:20.5Z,48.117300000,11.516666667,,,,,4.000,"a,b"

                """)
    }

    @Test("gpsd: TPV lines, mode 3 with an altitude, mode 1 for an invalid epoch; eph from HDOP")
    func gpsd() {
        var second = Self.munich
        second.elevation = nil
        let text = String(
            decoding: encode([Self.munich, second, Self.munich], with: GPSDEncoder(), valid: { $0 < 2 }), as: UTF8.self)
        #expect(
            text == #"""
                {"class":"TPV","device":"<a & \"b\">","mode":3,"time":"1994-03-23T12:35:19Z","lat":48.117300000,"lon":11.516666667,"alt":545.400,"speed":11.524,"track":84.400,"eph":4.500}
                {"class":"TPV","device":"<a & \"b\">","mode":2,"time":"1994-03-23T12:35:19Z","lat":48.117300000,"lon":11.516666667,"speed":11.524,"track":84.400,"eph":4.500}
                {"class":"TPV","device":"<a & \"b\">","mode":1,"time":"1994-03-23T12:35:19Z"}

                """#)
    }
}
