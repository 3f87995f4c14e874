import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// KML tracks as a feed: what GPSBabel reads from its own KML, Google
/// Earth's per-point data, and what is not a track.
@Suite("KML decoder")
struct KMLDecoderTests {
    /// GPSBabel's reading of `Tracks/kml/gpsbabel-igc1-tracks.kml`, the
    /// reference: `No,Latitude,Longitude,Date,Time` rows.
    static func gpsbabelReading() throws -> [(time: String, latitude: Double, longitude: Double)] {
        let text = try String(
            contentsOfFile: RepositoryPaths.track("kml/gpsbabel-igc1-tracks.kml.expected.gpsbabel.unicsv"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let cells = line.split(separator: ",").map(String.init)
            return (
                cells[3].replacingOccurrences(of: "/", with: "-") + "T" + cells[4] + "Z", Double(cells[1])!, Double(cells[2])!
            )
        }
    }

    @Test("GPSBabel's four gx:Tracks read as GPSBabel reads them, in any chunking")
    func gpsbabelTracks() throws {
        let bytes = try readBytes(RepositoryPaths.track("kml/gpsbabel-igc1-tracks.kml"))
        let reference = try Self.gpsbabelReading()
        #expect(reference.count == 121)
        let batch = decode(bytes, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        try #require(batch.fixes.count == reference.count)
        for (fix, expected) in zip(batch.fixes, reference) {
            #expect(fix.time.map(RFC3339.format) == expected.time)
            #expect(abs(fix.coordinate.latitude - expected.latitude) < 1e-9)
            #expect(abs(fix.coordinate.longitude - expected.longitude) < 1e-9)
        }
        let decoder = KMLDecoder()
        _ = decoder.decodeAll(bytes)
        #expect(decoder.statistics.ignored == ["Point placemark": 3], "the file's waypoints")
        for sizes in [[1], [7], [64], [4096]] {
            let chunked = decode(bytes, format: .kml, chunkSizes: repeatElement(sizes[0], count: bytes.count))
            #expect(chunked.fixes == batch.fixes, "chunks of \(sizes[0]) bytes")
        }
    }

    /// A track as Google Earth writes one, after the KML reference's
    /// `gx:Track` example: heading in `gx:angles`, data arrays in
    /// `ExtendedData`, an array Repeat does not read (heart rate), and a
    /// KML 2.3 `Track` without the `gx` prefix.
    static let earthTrack = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- exported by hand, after the KML reference -->
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
          <Schema id="schema"><gx:SimpleArrayField name="heartrate" type="int"/></Schema>
          <Placemark><name>Ride</name>
            <gx:Track>
              <when>2010-05-28T02:02:09Z</when>
              <when>2010-05-28T02:02:35.5Z</when>
              <when>2010-05-28T02:02:44+02:00</when>
              <gx:coord>-122.207881 37.371915 156.0</gx:coord>
              <gx:coord>-122.205712 37.373288 152.0</gx:coord>
              <gx:coord>-122.204678 37.373939 147.0</gx:coord>
              <gx:angles>45.5 0 0</gx:angles>
              <gx:angles>46 0 0</gx:angles>
              <gx:angles/>
              <ExtendedData>
                <SchemaData schemaUrl="#schema">
                  <gx:SimpleArrayData name="heartrate"><gx:value>181</gx:value><gx:value>177</gx:value><gx:value>175</gx:value></gx:SimpleArrayData>
                  <gx:SimpleArrayData name="speed"><gx:value>4.5</gx:value><gx:value/><gx:value>5.25</gx:value></gx:SimpleArrayData>
                  <gx:SimpleArrayData name="bearing"><gx:value>50</gx:value><gx:value/><gx:value/></gx:SimpleArrayData>
                  <gx:SimpleArrayData name="accuracy"><gx:value>8</gx:value><gx:value>12.5</gx:value><gx:value>9</gx:value></gx:SimpleArrayData>
                </SchemaData>
              </ExtendedData>
            </gx:Track>
          </Placemark>
          <Placemark xmlns:k="http://www.opengis.net/kml/2.3">
            <k:Track><k:when>2010-05-28T03:00:00Z</k:when><k:coord>-122.2 37.4</k:coord></k:Track>
          </Placemark>
        </Document>
        </kml>
        """

    @Test("Google Earth's per-point data: course from the bearing array or the heading, speed, accuracy")
    func earthTrackData() throws {
        let batch = decode(Self.earthTrack, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        try #require(batch.fixes.count == 4)
        #expect(
            batch.fixes.map { $0.time.map(RFC3339.format) } == [
                "2010-05-28T02:02:09Z", "2010-05-28T02:02:35.5Z", "2010-05-28T00:02:44Z", "2010-05-28T03:00:00Z",
            ])
        #expect(batch.fixes.map(\.coordinate.longitude) == [-122.207881, -122.205712, -122.204678, -122.2])
        #expect(batch.fixes.map(\.elevation) == [156, 152, 147, nil])
        #expect(batch.fixes.map(\.speed) == [4.5, nil, 5.25, nil])
        #expect(batch.fixes.map(\.course) == [50, 46, nil, nil], "the bearing array first, then the heading")
        #expect(batch.fixes.map(\.accuracy) == [8, 12.5, 9, nil])
        #expect(batch.fixes.allSatisfy { $0.device == nil && $0.hdop == nil })
    }

    @Test("bad times and positions are located and the track's other points kept")
    func badRecords() throws {
        let text = """
            <kml><Placemark><gx:Track xmlns:gx="http://www.google.com/kml/ext/2.2">
            <when>2024-05-01T10:00:00Z</when>
            <when>yesterday</when>
            <when>2024-05-01T10:00:02Z</when>
            <when>2024-05-01T10:00:03Z</when>
            <gx:coord>13.4 52.5</gx:coord>
            <gx:coord>13.4 52.6 12</gx:coord>
            <gx:coord>13.4,52.7</gx:coord>
            <gx:coord>13.4 95</gx:coord>
            </gx:Track></Placemark></kml>
            """
        let batch = decode(text, format: .kml)
        #expect(batch.fixes.map(\.coordinate.latitude) == [52.5, 52.6])
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == ["2024-05-01T10:00:00Z", nil])
        #expect(
            batch.diagnostics.map(\.description) == [
                "line 3: badField: <when> 'yesterday' is not an RFC 3339 date and time; the point is kept without a time",
                "line 8: badField: <gx:coord> '13.4,52.7' is not longitude latitude [altitude]; skipped",
                "line 9: badField: position 95.0,13.4 (lat,lon) is out of range; skipped",
            ])
    }

    @Test("a track with fewer times than positions keeps the rest without a time, and says so")
    func unpairedTrack() throws {
        let text = """
            <kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
            <when>2024-05-01T10:00:00Z</when>
            <gx:coord>13.4 52.5</gx:coord>
            <gx:coord>13.4 52.6</gx:coord>
            <gx:coord>13.4 52.7</gx:coord>
            </gx:Track></Placemark></kml>
            """
        let batch = decode(text, format: .kml)
        #expect(batch.fixes.map { $0.time == nil } == [false, true, true])
        #expect(
            batch.diagnostics.map(\.description) == [
                "line 1: missingField: <gx:Track> has 1 <when> and 3 <gx:coord>, which KML pairs one to one: "
                    + "the last 2 positions are kept without a time"
            ])
    }

    @Test("places and paths are no track: waypoints when asked, and one word at the end")
    func noTrack() throws {
        let bytes = try readBytes(RepositoryPaths.track("places/gpsbabel-googletakeout.kml"))
        let batch = decode(bytes, format: nil)
        #expect(batch.fixes.isEmpty)
        try #require(batch.diagnostics.count == 1)
        #expect(batch.diagnostics[0].code == .missingField)
        #expect(
            batch.diagnostics[0].message.hasPrefix(
                "no track (<gx:Track>) in this KML, only 111 Point placemarks (111 with a TimeStamp)"))
        #expect(batch.diagnostics[0].message.contains("gpsbabel -i kml -f IN.kml -x nuketypes,tracks -x transform,trk=wpt,del"))

        let waypoints = decode(bytes, format: .kml, options: FeedDecodingOptions(collectWaypoints: true)).waypoints
        let gpx = decode(
            try readBytes(RepositoryPaths.track("places/gpsbabel-googletakeout.gpx")), format: .gpx,
            options: FeedDecodingOptions(collectWaypoints: true)
        ).waypoints
        #expect(waypoints.count == 111)
        #expect(waypoints.map(\.name) == gpx.map(\.name))
        #expect(waypoints.map(\.time) == gpx.map(\.time), "the placemarks' TimeStamps")
        for (kml, gpx) in zip(waypoints, gpx) {
            #expect(Geodesy.distance(kml.coordinate, gpx.coordinate) < 0.2, "6 decimals in the KML")
        }

        let areas = decode(try readBytes(RepositoryPaths.track("places/berlin-areas.kml")), format: nil)
        #expect(areas.fixes.isEmpty)
        #expect(
            areas.diagnostics.map(\.message).last
                == "no track (<gx:Track>) in this KML, only 3 Point placemarks, 3 Polygon areas and 1 LineString path "
                + "without times: places go to --regions or place import; generate ROUTE drives along a path")

        let path = decode(try readBytes(RepositoryPaths.track("places/gpsbabel-visnjan-car-line.kml")), format: nil)
        #expect(path.fixes.isEmpty)
        #expect(
            path.diagnostics.map(\.message) == [
                "no track (<gx:Track>) in this KML, only 1 LineString path without times: generate ROUTE drives along a path"
            ])
    }

    @Test("a KML is told by its root element, after a declaration and comments, however the reads cut it")
    func sniffed() {
        let text =
            "<?xml version=\"1.0\"?>\n<!-- a long comment " + String(repeating: "-x", count: 3000)
            + " -->\n<kml:kml xmlns:kml=\"http://www.opengis.net/kml/2.2\"><Document/></kml:kml>"
        let bytes = Array(text.utf8)
        #expect(FeedSniffer.detect(bytes, isComplete: true) == .kml)
        #expect(FeedSniffer.detect(Array(bytes.prefix(4096)), isComplete: false) == nil, "the root is not reached yet")
        #expect(FeedSniffer.detect(Array("<?xml version=\"1.0\"?><gpx version=\"1.1\">".utf8), isComplete: false) == .gpx)
        #expect(FeedSniffer.detect(Array("<not xml".utf8), isComplete: true) == .gpx, "the GPX decoder says what is wrong")
        let decoder = makeFeedDecoder(format: nil)
        var batch = FeedBatch()
        for byte in bytes { decoder.decode([byte], into: &batch) }
        decoder.finish(into: &batch)
        #expect(decoder.format == .kml)
    }
}
