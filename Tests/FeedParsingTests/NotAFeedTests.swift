import FeedParsing
import Testing

/// Files that are no feed are told apart from feeds by their first bytes.
@Suite("not a feed")
struct NotAFeedTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        "what a file that is no feed looks like",
        arguments: [
            (
                bytes("<?xml version=\"1.0\"?>\n<!-- from JOSM -->\n<osm version=\"0.6\" generator=\"JOSM\">"),
                NotAFeed.otherXML(root: "osm")
            ),
            (bytes("{\"type\":\"FeatureCollection\",\"features\":[]}"), .geoJSON),
            (bytes("\u{FEFF}{\n  \"tasks\": [{\"id\": \"bins\"}]}"), .tasks),
            (bytes("{\n  \"timelineObjects\": [{\n    \"activitySegment\": {\n"), .takeoutTimeline),
            (bytes("{\"route\": \"car.gpx\", \"environment\": \"urban\"}"), .otherJSON),
            (bytes("[{\"id\": 1}]"), .otherJSON),
            ([0x1F, 0x8B, 0x08, 0x00], .compressed("gzip")),
            ([0x50, 0x4B, 0x03, 0x04, 0x14], .archive("zip")),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10], .image("JPEG")),
            ([0x00, 0x01, 0x02, 0x22, 0x41, 0x5C], .binary(excerpt: "\"\\x00\\x01\\x02\\x22A\\x5C\"")),
            ([], .empty),
        ])
    func identifies(prefix: [UInt8], expected: NotAFeed) {
        #expect(NotAFeed.identify(prefix, isWholeFile: true) == expected)
    }

    @Test("feeds of every kind pass, and so does a prefix that has not reached the root element")
    func feedsPass() {
        let feeds = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\">", "<gpx:gpx xmlns:gpx=\"…\">",
            "<?xml version=\"1.0\"?><kml:kml xmlns:kml=\"http://www.opengis.net/kml/2.2\">",
            "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">",
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n",
            "time,lat,lon\n2025-01-01T00:00:00Z,52.5,13.4\n", "{\"class\":\"TPV\",\"mode\":3,\"lat\":52.5,\"lon\":13.4}\n",
            "Ort;Breite;Länge\n", "<?xml version=\"1.0\"?>\n<!-- a long comment",
            // Google's histories: Takeout's Records.json, and the on-device
            // Timeline export as Android and iOS write it (Dawarich's fixtures' shapes).
            "{\n  \"locations\": [{\n    \"latitudeE7\": 414216106,",
            "{\n  \"semanticSegments\": [\n    {\n      \"startTime\": \"2019-04-03T08:00:00.000+02:00\",",
            "{\"rawSignals\": [{\"position\": {\"LatLng\": \"52.520500°, 13.405500°\"}}]}",
            "[\n  {\n    \"endTime\": \"2025-07-29T15:00:00.000Z\",\n    \"startTime\": \"2025-07-29T13:00:00.000Z\",",
        ]
        for feed in feeds { #expect(NotAFeed.identify(Array(feed.utf8), isWholeFile: false) == nil, "\(feed)") }
        // UTF-16 with a byte-order mark is text, not binary.
        #expect(NotAFeed.identify([0xFF, 0xFE, 0x24, 0x00, 0x47, 0x00], isWholeFile: false) == nil)
        // A first line cut short may yet name gpsd's "class".
        #expect(NotAFeed.identify(Array("{\"device\":\"/dev/ttyACM0\",".utf8), isWholeFile: false) == nil)
        #expect(NotAFeed.identify(Array("{\"device\":\"/dev/ttyACM0\",".utf8), isWholeFile: true) == .otherJSON)
        // An empty prefix of a file still being read says nothing.
        #expect(NotAFeed.identify([], isWholeFile: false) == nil)
        // XML is judged only where GPX is expected.
        #expect(NotAFeed.identify(Array("<kml>".utf8), isWholeFile: true, format: .csv) == nil)
    }
}
