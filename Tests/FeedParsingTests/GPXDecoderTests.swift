import FeedParsing
import GeoCore
import Testing

@Suite("GPX decoder (libxml2 SAX2 push parser)")
struct GPXDecoderTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- exported -->
        <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:x="urn:ext" version="1.1">
          <g:wpt lat="52.5163" lon="13.3777"><g:name>Pharmacy &amp; more</g:name><g:ele>34</g:ele></g:wpt>
          <g:rte><g:rtept lat="1" lon="2"/></g:rte>
          <g:trk><g:trkseg>
            <g:trkpt lat="52.52" lon="13.40">
              <g:ele>34.5</g:ele>
              <g:time>2025-03-01T11:00:00.250+01:00</g:time>
              <g:hdop><![CDATA[0.9]]></g:hdop>
              <g:extensions><x:deep><g:time>1999-01-01T00:00:00Z</g:time><g:ele>9999</g:ele></x:deep></g:extensions>
            </g:trkpt>
            <g:trkpt lat=" 52.53 " lon="13.41"><!-- no time --><g:ele>35</g:ele></g:trkpt>
          </g:trkseg></g:trk>
        </g:gpx>
        """

    @Test("track points with any prefix; extensions skipped; CDATA, entities and comments")
    func trackPoints() throws {
        let batch = decode(Self.document, format: .gpx)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.count == 2)
        let first = try #require(batch.fixes.first)
        #expect(first.time.map(RFC3339.format) == "2025-03-01T10:00:00.250Z")
        #expect(first.elevation == 34.5)
        #expect(first.hdop == 0.9)
        #expect(first.coordinate == Coordinate(latitude: 52.52, longitude: 13.40))
        #expect(batch.fixes[1].time == nil)
        #expect(batch.fixes[1].coordinate.latitude == 52.53)
        #expect(batch.waypoints.isEmpty)
    }

    @Test("waypoints are listed when asked for; route points never are fixes")
    func waypoints() throws {
        let decoder = GPXDecoder(options: FeedDecodingOptions(collectWaypoints: true))
        let batch = decoder.decodeAll(Array(Self.document.utf8))
        let waypoint = try #require(batch.waypoints.first)
        #expect(waypoint.name == "Pharmacy & more")
        #expect(waypoint.elevation == 34)
        #expect(decoder.statistics.ignored["rtept"] == 1)
    }

    @Test("GPX 1.0 without a namespace, with speed and course, after a UTF-8 BOM")
    func gpx10() throws {
        let text =
            "\u{FEFF}<gpx version=\"1.0\"><trk><trkseg><trkpt lat=\"1.5\" lon=\"-2.5\"><time>2002-05-25T17:06:00Z</time><speed>3.5</speed><course>271</course></trkpt></trkseg></trk></gpx>"
        let fix = try #require(decode(text, format: nil).fixes.first)
        #expect(fix.speed == 3.5)
        #expect(fix.course == 271)
        #expect(fix.time.map(RFC3339.format) == "2002-05-25T17:06:00Z")
    }

    /// Hostile GPX, one row per case: the input, the fixes kept, the diagnostic codes.
    static let hostile: [(legend: String, input: String, fixes: Int, codes: [FeedDiagnostic.Code])] = [
        (
            "point without lon", "<gpx><trk><trkseg><trkpt lat=\"1\"/><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>", 1,
            [.missingField]
        ),
        ("latitude not a number", "<gpx><trkpt lat=\"x\" lon=\"2\"/><trkpt lat=\"1\" lon=\"2\"/></gpx>", 1, [.badField]),
        ("latitude out of range", "<gpx><trkpt lat=\"91\" lon=\"2\"/></gpx>", 0, [.badField]),
        ("bad time keeps the point", "<gpx><trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></gpx>", 1, [.badField]),
        (
            "year beyond the time range", "<gpx><trkpt lat=\"1\" lon=\"2\"><time>4096-12-12T08:00:00Z</time></trkpt></gpx>", 1,
            [.badField]
        ),
        ("empty ele is absent", "<gpx><trkpt lat=\"1\" lon=\"2\"><ele/></trkpt></gpx>", 1, []),
        ("truncated document", "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt><trkpt lat=\"3\" lo", 1, [.badXML]),
        ("not XML at all", "this is not xml", 0, [.badXML]),
    ]

    @Test("hostile GPX: located diagnostics, good points kept", arguments: 0..<hostile.count)
    func hostileInput(row: Int) {
        let expected = Self.hostile[row]
        let batch = decode(expected.input, format: .gpx)
        #expect(batch.fixes.count == expected.fixes, "\(expected.legend)")
        #expect(
            Array(Set(batch.diagnostics.map(\.code))).sorted { $0.rawValue < $1.rawValue } == expected.codes,
            "\(expected.legend): \(batch.diagnostics)")
        #expect(batch.diagnostics.allSatisfy { $0.location.line >= 1 }, "\(expected.legend)")
    }

    @Test("a time in a year a timestamp does not hold says so, apart from one that is no time")
    func timesOutsideTheSpan() {
        let batch = decode(
            "<gpx><trkpt lat=\"1\" lon=\"2\"><time>4096-12-12T08:00:00Z</time></trkpt>"
                + "<trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></gpx>", format: .gpx)
        #expect(
            batch.diagnostics.map(\.message) == [
                "<time> '4096-12-12T08:00:00Z' is outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z, "
                    + "the times a feed can hold; the point is kept without it",
                "<time> 'yesterday' is not an RFC 3339 time; the point is kept without it",
            ])
    }

    @Test("an empty input is reported, not a crash")
    func emptyInput() {
        let batch = decode([UInt8](), format: .gpx)
        #expect(batch.fixes.isEmpty)
        #expect(batch.diagnostics.map(\.code) == [.badXML])
    }
}

/// What sits inside `<metadata>` describes the file; it is never the feed.
@Suite("GPX metadata")
struct GPXMetadataTests {
    @Test("a <trk> inside <metadata> is not a track; the real one after it is")
    func trackInsideMetadataIsSkipped() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><name>walk</name>
                <trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk>
                <time>2020-01-01T00:00:00Z</time>
              </metadata>
              <trk><trkseg>
                <trkpt lat="52.5" lon="13.4"><time>2020-01-01T10:00:00Z</time></trkpt>
                <trkpt lat="52.6" lon="13.5"><time>2020-01-01T10:00:01Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """
        let batch = decode(gpx, format: .gpx)
        #expect(batch.diagnostics.isEmpty)
        #expect(batch.fixes.map(\.coordinate.latitude) == [52.5, 52.6])
    }

    @Test("a field's text is capped at 64 KiB and quoted as a short excerpt, line breaks escaped")
    func hugeFieldText() {
        let huge = String(repeating: "1", count: 1_000_000)
        let gpx =
            "<gpx><trk><trkseg><trkpt lat=\"52.5\" lon=\"13.4\"><ele>\(huge)</ele><time>2025-03-01T10:00:00Z</time></trkpt>"
            + "<trkpt lat=\"52.5\" lon=\"13.4\"><ele>12\n3</ele><time>2025-03-01T10:00:01Z</time></trkpt>"
            + "</trkseg></trk></gpx>"
        let batch = decode(gpx, format: .gpx)
        #expect(batch.fixes.count == 2)
        #expect(batch.fixes.allSatisfy { $0.elevation == nil })
        let messages = batch.diagnostics.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains("<ele> has 1000000 bytes of text, more than 64 KiB") == true, "\(messages)")
        #expect(messages.allSatisfy { $0.count < 200 }, "\(messages)")
        #expect(messages.last?.contains("<ele> '12\\u{a}3' is not a number") == true, "\(messages)")
    }
}
