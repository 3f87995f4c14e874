import FeedParsing
import Testing

@Suite("Format sniffing")
struct FeedSnifferTests {
    @Test(
        "the format follows from the content",
        arguments: [
            ("<?xml version=\"1.0\"?><gpx>", FeedFormat.gpx),
            ("\u{FEFF}  \n<gpx>", .gpx),
            ("$GPGGA,1*00\n", .nmea),
            ("# gpsd log\n$GPRMC,", .nmea),
            ("AMOD logger v1\nfree text\n$GPGGA,123519,4807.038,N*00\n", .nmea),
            ("{\"class\":\"TPV\",\"mode\":3}\n", .gpsd),
            ("{\"class\":\"VERSION\"}\n$GPGGA,123519,4807.038,N,01131.000,E,1*00\n", .nmea),
            ("lat,lon\n1,2\n", .csv),
            ("time;latitude;longitude\n", .csv),
        ])
    func detect(text: String, expected: FeedFormat) {
        #expect(FeedSniffer.detect(Array(text.utf8), isComplete: true) == expected)
    }

    @Test("a short prefix waits for more bytes when the first character does not decide")
    func needsMore() {
        #expect(FeedSniffer.detect(Array("lat,lo".utf8), isComplete: false) == nil)
        #expect(FeedSniffer.detect(Array("  ".utf8), isComplete: false) == nil)
        #expect(FeedSniffer.detect(Array("  <".utf8), isComplete: false) == .gpx)
    }

    @Test("a stream that opens with megabytes of comments is decided after a bounded prefix, not held")
    func boundedPrefix() {
        let decoder = makeFeedDecoder(format: nil)
        var batch = FeedBatch()
        let comments = Array(String(repeating: "# banner line\n", count: 1_000).utf8)
        for _ in 0..<100 {  // 1.4 MB
            comments.withUnsafeBytes { decoder.decode($0, into: &batch) }
        }
        #expect(decoder.format == .nmea, "decided before the end of the stream")
        let sentence = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n".utf8)
        sentence.withUnsafeBytes { decoder.decode($0, into: &batch) }
        decoder.finish(into: &batch)
        #expect(batch.diagnostics.allSatisfy { $0.code != .garbage }, "comments are skipped, not garbage")
    }
}
