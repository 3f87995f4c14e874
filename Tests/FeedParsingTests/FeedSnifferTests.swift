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
            ("u-blox AG\nROM CORE 3.01\n\n$GPTXT,01,01,02,ANTSTATUS=OK*3B\n", .nmea),
            ("receiver v2\nlogging to CSV\ntime,lat,lon\n", .csv),
            ("boot\n{\"class\":\"VERSION\"}\n{\"class\":\"TPV\",\"mode\":3}\n", .gpsd),
            ("a,b,c\n52.5,13.4\n", .csv),
            ("just some text\n", .csv),
            ("", .nmea),
            ("time;latitude;longitude\n", .csv),
        ])
    func detect(text: String, expected: FeedFormat) {
        #expect(FeedSniffer.detect(Array(text.utf8), isComplete: true) == expected)
    }

    @Test("a short prefix waits for more bytes when the first character does not decide")
    func needsMore() {
        #expect(FeedSniffer.detect(Array("lat,lo".utf8), isComplete: false) == nil)
        #expect(FeedSniffer.detect(Array("  ".utf8), isComplete: false) == nil)
        // XML waits for its root element's name: GPX or KML.
        #expect(FeedSniffer.detect(Array("  <".utf8), isComplete: false) == nil)
        #expect(FeedSniffer.detect(Array("  <gp".utf8), isComplete: false) == nil)
        #expect(FeedSniffer.detect(Array("  <gpx ".utf8), isComplete: false) == .gpx)
        #expect(FeedSniffer.detect(Array("  <".utf8), isComplete: true) == .gpx)
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

    /// A u-blox receiver's start-up text: 60 lines, 5 KB, before its first sentence.
    static let banner = (0..<60).map { "u-blox AG - www.u-blox.com boot message \($0): ROM CORE 3.01 (107888) GPS;GLO\r\n" }
        .joined()

    @Test("a banner decides nothing: the first record does, however reads cut the stream", arguments: [1, 2, 64, 4096, 1 << 20])
    func bannerBeforeRecords(chunkSize: Int) {
        let sentences =
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
            + "$GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*60\r\n"
        let csv = "time,lat,lon\n2025-03-01T10:00:00Z,52.5,13.4\n"
        for (feed, format) in [(sentences, FeedFormat.nmea), (csv, .csv)] {
            let bytes = Array((Self.banner + feed).utf8)
            let decoder = makeFeedDecoder(format: nil)
            var batch = FeedBatch()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunkSize)
                bytes[offset..<end].withUnsafeBytes { decoder.decode($0, into: &batch) }
                offset = end
            }
            decoder.finish(into: &batch)
            #expect(decoder.format == format)
            #expect(batch.fixes.count == (format == .nmea ? 2 : 1))
            #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
            #expect(decoder.statistics.ignored["banner line"] == 60)
        }
    }

    @Test(
        "a stream opened in the middle of a sentence whose tail opens with numbers is NMEA, however reads cut it",
        arguments: [1, 7, 64, 4096])
    func tailOfASentence(chunkSize: Int) {
        let sentences =
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
            + "$GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*60\r\n"
        // Tails of GSV, GGA and RMC sentences: numbers, as a headerless CSV row opens.
        for tail in ["12,24,58,220,,26,17,053,,29*7F\r\n", "1,08,0.9,545.4,M,46.9,M,,*47\r\n", "0.00,0.00,080407,,,A*6E\r\n"] {
            let bytes = Array((tail + sentences).utf8)
            let decoder = makeFeedDecoder(format: nil)
            var batch = FeedBatch()
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                bytes[start..<min(bytes.count, start + chunkSize)].withUnsafeBytes { decoder.decode($0, into: &batch) }
            }
            decoder.finish(into: &batch)
            #expect(decoder.format == .nmea, "\(tail)")
            #expect(batch.fixes.count == 2 && batch.diagnostics.isEmpty, "\(batch.diagnostics)")
            #expect(decoder.statistics.ignored["banner line"] == 1)
        }
        // Rows of numbers are a headerless CSV still, a stream's or a file's, one row or many.
        for rows in ["52.5,13.4\n", "52.5,13.4\n52.6,13.5\n", "52.5,13.4\n\n# note\n52.6,13.5\n"] {
            #expect(FeedSniffer.detect(Array(rows.utf8), isComplete: true) == .csv, "\(rows)")
        }
        #expect(FeedSniffer.detect(Array("52.5,13.4\n52.6,1".utf8), isComplete: false) == nil, "waits for the next line")
        #expect(FeedSniffer.detect(Array("52.5,13.4\n$GP".utf8), isComplete: false) == .nmea)
    }

    @Test("the lines after a banner keep their numbers")
    func bannerKeepsLineNumbers() {
        let bytes = Array((Self.banner + "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*00\r\n").utf8)
        let batch = makeFeedDecoder(format: nil).decodeAll(bytes)
        #expect(batch.diagnostics.map(\.location.line) == [61])
    }
}
