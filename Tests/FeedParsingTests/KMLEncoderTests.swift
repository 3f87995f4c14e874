import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// What ``KMLEncoder`` writes: tracks Google Earth shows and the decoder reads back.
@Suite("KML encoder")
struct KMLEncoderTests {
    @Test("a long run is written in gx:Track segments of a bounded size, one placemark per device")
    func segments() throws {
        let fixes = randomFixes(count: 2500, seed: 9, devices: ["car"]) + randomFixes(count: 10, seed: 10, devices: ["bike"])
        let text = String(decoding: encode(fixes, with: KMLEncoder()), as: UTF8.self)
        #expect(text.components(separatedBy: "<gx:Track>").count - 1 == 4, "1000 + 1000 + 500 for the car, 10 for the bike")
        #expect(text.components(separatedBy: "<Placemark>").count - 1 == 2)
        #expect(text.contains("<Placemark><name>car</name><gx:MultiTrack>"))
        #expect(text.contains("<Placemark><name>bike</name><gx:MultiTrack>"))
        // KML's schema orders a track's children: every when, then every coord, then the data.
        let names = try XMLWellFormed.elementNames(text).filter { ["Track", "when", "coord", "ExtendedData"].contains($0) }
        let tracks = names.split(separator: "Track").map { $0.map { $0 == "when" ? "w" : $0 == "coord" ? "c" : "e" }.joined() }
        #expect(tracks.count == 4)
        #expect(tracks.allSatisfy { $0.wholeMatch(of: /(w+)(c+)e?/).map { $0.1.count == $0.2.count } == true }, "\(tracks)")
        let batch = decode(Array(text.utf8), format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics.prefix(3))")
        try #require(batch.fixes.count == fixes.count)
        for (decoded, original) in zip(batch.fixes, fixes) {
            expectRoundTrip(decoded, original, .kml, .kml)
        }
    }

    @Test("a segment's data arrays are written only where one of its fixes has the value")
    func sparseArrays() {
        let time = Timestamp(nanoseconds: 1_740_823_200_000_000_000)
        let fixes = [
            Fix(time: time, coordinate: Coordinate(latitude: 52.5, longitude: 13.4), speed: 1.5),
            Fix(time: time, coordinate: Coordinate(latitude: 52.6, longitude: 13.4), elevation: 34),
        ]
        let text = String(decoding: encode(fixes, with: KMLEncoder()), as: UTF8.self)
        #expect(text.contains(#"<gx:SimpleArrayData name="speed"><gx:value>1.500</gx:value><gx:value/></gx:SimpleArrayData>"#))
        #expect(!text.contains(#"<gx:SimpleArrayData name="course">"#))
        #expect(
            text.contains("<gx:coord>13.400000000 52.500000000</gx:coord>\n<gx:coord>13.400000000 52.600000000 34.000</gx:coord>")
        )
    }
}
