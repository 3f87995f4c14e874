import FeedParsing
import Testing

/// Inputs that the libFuzzer targets of `Fuzz/` (`Scripts/fuzz.py`) found
/// to crash a decoder or break its contract, each with what the decoder
/// must do with it. CONTRIBUTING.md ("Fuzzing") says how to add one.
@Suite("Fuzz findings")
struct FuzzRegressionTests {
    /// The decoder's format after `chunks`, one after the other, and its batch.
    static func sniff(_ chunks: [[UInt8]]) -> (FeedFormat?, FeedBatch) {
        let decoder = makeFeedDecoder(format: nil)
        var batch = FeedBatch()
        for chunk in chunks { decoder.decode(chunk, into: &batch) }
        decoder.finish(into: &batch)
        return (decoder.format, batch)
    }

    // fuzz-sniff: once the sniffing decoder holds FeedSniffer.decisiveLength
    // bytes of text it looks for an NMEA sentence in everything it holds, so
    // a sentence past 4 KiB makes the file NMEA when the first chunk reaches
    // it and CSV when the first chunk ends before it. Found in CSV files of
    // ../shared/corpus cut at 3172/6479 and 4244/5310 bytes, and in a UTF-16
    // file cut at 3024 (its text is counted after transcoding: the 4096
    // bytes were reached within 3024 input bytes of CJK-looking pairs). Not fixed
    // here: the sniffer is being rewritten; when the rewrite fixes it, this
    // known issue is no longer recorded and the test fails — then make the
    // expectation plain and drop the allowance in Fuzz/Sources/FuzzSupport.
    @Test("a feed is sniffed as the same format whatever its first chunk's length (known issue)")
    func sniffedFormatDependsOnChunks() {
        var text = "lat,lon\n"
        while text.utf8.count < FeedSniffer.decisiveLength + 100 { text += "52.5,13.4\n" }
        text += "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"
        let bytes = Array(text.utf8)
        let cut = FeedSniffer.decisiveLength + 50
        let (wholeFormat, whole) = Self.sniff([bytes])
        let (chunkedFormat, chunked) = Self.sniff([Array(bytes[..<cut]), Array(bytes[cut...])])
        #expect(wholeFormat != nil && chunkedFormat != nil)
        withKnownIssue("the sniffer decides on all the bytes it holds, not on the first decisiveLength") {
            #expect(chunkedFormat == wholeFormat)
            #expect(chunked.fixes == whole.fixes)
        }
    }
}
