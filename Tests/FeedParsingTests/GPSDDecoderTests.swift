import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

@Suite("gpsd JSON decoder")
struct GPSDDecoderTests {
    @Test("TPV reports become fixes; other classes and NMEA echoes are counted")
    func tpv() throws {
        let text = """
            {"class":"VERSION","release":"3.22","proto_major":3}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2025-03-01T10:00:00.000Z","lat":52.52,"lon":13.4,"altHAE":80.5,"altMSL":34.0,"eph":4.5,"speed":1.25,"track":90.0,"nested":{"a":[1,2,{"b":"}"}]}}
            $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
            {"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2025-03-01T10:00:01.000Z"}
            {"class":"SKY","satellites":[]}
            {"class":"TPV","mode":2,"lat":-1e-3,"lon":1.5E+1,"device":"tab\\tname \\u00e9"}
            {"class":"TPV","mode":3,"lat":1
            """
        let decoder = GPSDDecoder()
        let batch = decoder.decodeAll(Array(text.utf8))
        #expect(batch.fixes.count == 2)
        let fix = try #require(batch.fixes.first)
        #expect(fix.time.map(RFC3339.format) == "2025-03-01T10:00:00.000Z")
        #expect(fix.elevation == 34.0)
        #expect(fix.accuracy == 4.5)
        #expect(fix.course == 90.0)
        #expect(fix.speed == 1.25)
        #expect(fix.device == "/dev/ttyUSB0")
        #expect(batch.fixes[1].coordinate == Coordinate(latitude: -0.001, longitude: 15))
        #expect(batch.fixes[1].device == "tab\tname é")
        #expect(batch.diagnostics.map(\.code) == [.invalidFix, .badJSON])
        #expect(batch.diagnostics.map(\.location.line) == [4, 7])
        #expect(batch.epochsWithoutFix.map(\.device) == ["/dev/ttyUSB0"])
        #expect(decoder.statistics.ignored == ["VERSION": 1, "SKY": 1, "NMEA line": 1])
    }

    @Test("a TPV time in a year a timestamp does not hold says so; the fix is kept without it")
    func timeOutsideTheSpan() {
        let text = """
            {"class":"TPV","mode":2,"time":"2300-01-01T00:00:00Z","lat":45,"lon":13}
            {"class":"TPV","mode":2,"time":"soon","lat":45,"lon":13}
            """
        let batch = GPSDDecoder().decodeAll(Array(text.utf8))
        #expect(batch.fixes.count == 2 && batch.fixes.allSatisfy { $0.time == nil })
        #expect(
            batch.diagnostics.map(\.message) == [
                "TPV time '2300-01-01T00:00:00Z' is outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z, "
                    + "the times a feed can hold; the fix is kept without a time",
                "TPV time 'soon' is not RFC 3339; the fix is kept without a time",
            ])
    }

    /// gpsd's own regression outputs (`.chk`) mix echoed NMEA with its JSON
    /// reports; decoding them must give exactly the TPVs gpsd wrote with
    /// mode ≥ 2 and a position, read independently here with JSONSerialization.
    @Test(
        "gpsd .chk files: the decoder's fixes are gpsd's fix TPVs", .needsSharedCorpus,
        arguments: CorpusEntry.all.filter { $0.path.hasPrefix("nmea/gpsd/") })
    func chkFiles(entry: CorpusEntry) throws {
        let path = entry.absolutePath + ".chk"
        let bytes = try readBytes(path)
        let fixes = decode(bytes, format: .gpsd).fixes
        let text = String(decoding: bytes, as: UTF8.self)
        var expected: [(Double, Double, String?)] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["class"] as? String == "TPV", (object["mode"] as? Int ?? 0) >= 2,
                let lat = object["lat"] as? Double, let lon = object["lon"] as? Double
            else { continue }
            expected.append((lat, lon, object["time"] as? String))
        }
        #expect(fixes.count == expected.count)
        for (fix, reference) in zip(fixes, expected) {
            #expect(fix.coordinate.latitude == reference.0 && fix.coordinate.longitude == reference.1)
            #expect(fix.time == reference.2.flatMap(RFC3339.parse))
        }
    }
}
