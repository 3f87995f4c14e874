import FeedParsing
import TestSupport
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

    // fuzz-sniff found that the sniffer, once it held 4 KiB of text, looked
    // for an NMEA sentence in everything it held: a sentence past 4 KiB made
    // a CSV file NMEA when the first chunk reached it and CSV when it ended
    // before (CSV files of ../shared/corpus cut at 3172/6479 and 4244/5310
    // bytes, a UTF-16 file cut at 3024). The sniffer now decides on the first
    // whole line that is a record.
    @Test("a feed is sniffed as the same format whatever its first chunk's length")
    func sniffedFormatDoesNotDependOnChunks() {
        var text = "lat,lon\n"
        while text.utf8.count < FeedSniffer.decisiveLength + 100 { text += "52.5,13.4\n" }
        text += "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"
        let bytes = Array(text.utf8)
        let (wholeFormat, whole) = Self.sniff([bytes])
        #expect(wholeFormat == .csv)
        for cut in [1, 7, FeedSniffer.decisiveLength - 1, FeedSniffer.decisiveLength + 50, bytes.count - 1] {
            let (chunkedFormat, chunked) = Self.sniff([Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(chunkedFormat == wholeFormat, "cut at \(cut)")
            #expect(chunked.fixes == whole.fixes, "cut at \(cut)")
        }
    }

    // fuzz-gpx (in CI's first run with the new GPX encoding handling): a
    // declaration whose `?>` lies past its first 1 KiB was read for its
    // encoding when the first read held the whole file, and not when the
    // first read ended before the `?>`. Only the first 1 KiB counts now.
    @Test("a GPX declaration is looked for in its first 1 KiB only, however the input is cut")
    func declarationPastOneKiB() throws {
        let bytes = try readBytes(RepositoryPaths.root + "/Fuzz/Regressions/gpx/declaration-past-1-KiB.gpx")
        let whole = decode(bytes, format: .gpx)
        for cut in [1388, 1024, 600] {
            let chunked = decode(bytes, format: .gpx, chunkSizes: [cut])
            #expect(chunked.diagnostics == whole.diagnostics, "cut at \(cut)")
            #expect(chunked.fixes == whole.fixes, "cut at \(cut)")
        }
        #expect(!whole.diagnostics.contains { $0.message.contains("declares encoding") })
    }

    // The UTF-16 form of the same finding: 1400 CJK characters are 2800
    // input bytes but 4200 bytes of text, so the old sniffer reached its
    // 4 KiB within the first chunk (Fuzz/Regressions/sniff/).
    @Test("a UTF-16 feed is sniffed as the same format whatever its first chunk's length")
    func sniffedUTF16FormatDoesNotDependOnChunks() {
        let text =
            "lat,lon," + String(repeating: "\u{3831}", count: 1400) + "\n52.5,13.4,x\n"
            + "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let (wholeFormat, whole) = Self.sniff([bytes])
        #expect(wholeFormat == .csv)
        #expect(whole.fixes.count == 1)
        for cut in [1, 2, 3, 2 + 2 * (8 + 1400), bytes.count - 1] {
            let (chunkedFormat, chunked) = Self.sniff([Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(chunkedFormat == wholeFormat, "cut at \(cut)")
            #expect(chunked.fixes == whole.fixes, "cut at \(cut)")
        }
    }

    // fuzz-gpx (CI, at ffe0da7): a document declaring UTF-7 with a base64
    // run that is not valid. glibc's UTF-7 converter made of it something
    // that depended on where the iconv calls ended, that is on the reads,
    // and it stayed in the broken run: every byte after it was bad too, up
    // to the 100 reported. iconv is now given the input in fixed blocks and
    // starts again from its initial state after a bad byte. The document
    // below is Fuzz/Regressions/gpx/invalid-utf-7.gpx, the fuzzer's seed.
    @Test("UTF-7 that is not valid decodes alike however the input is cut, and costs only its bad bytes")
    func invalidUTF7() {
        var bytes = Array(GPXEncodingTests.track(40, encoding: "UTF-7").utf8)
        // Waypoints on lines 10, 20 and 30. Those on 10 and 30 hold bad runs
        // ended by `-`; the one on 20 lost `Zf` when a read ended after
        // `+Z+zfZ`, even with the converter reset after a bad byte.
        for (name, line) in [("+AOkA6QD-x +/Zff- y", 10), ("+Z+zfZf0Az9+", 20), ("a+0z+b-", 30)] {
            let waypoint = "<wpt lat=\"1\" lon=\"2\"><name>\(name)</name></wpt>\n"
            bytes = GPXEncodingTests.inserting(Array(waypoint.utf8), beforeLine: line, of: bytes)
        }
        let options = FeedDecodingOptions(collectWaypoints: true)
        let whole = decode(bytes, format: .gpx, options: options)
        #expect(whole.fixes.count == 40)
        // CPython's `bytes.decode("utf-7", "replace")` of the names on 10 and 30.
        #expect(whole.waypoints.first?.name == "éé\u{FFFD}x ﶗ\u{FFFD} y")
        #expect(whole.waypoints.last?.name == "a팿\u{FFFD}")
        #expect(whole.diagnostics.map(\.location.line) == [10, 10, 20, 30], "\(whole.diagnostics)")
        for cut in 1..<bytes.count {
            let chunked = decode(bytes, format: .gpx, chunkSizes: [cut], options: options)
            guard chunked.diagnostics == whole.diagnostics, chunked.waypoints == whole.waypoints else {
                Issue.record("cut at \(cut): \(chunked.diagnostics) against \(whole.diagnostics)")
                return
            }
        }
        let byteByByte = decode(bytes, format: .gpx, chunkSizes: repeatElement(1, count: bytes.count), options: options)
        #expect(byteByByte.diagnostics == whole.diagnostics)
        #expect(byteByByte.waypoints == whole.waypoints)
    }

    // fuzz-fit (its first run): bytes that are no FIT header were judged on
    // the bytes of the first read, so the message quoted 4 bytes when the
    // first chunk held 4 and 12 when it held the whole input. The first 12
    // bytes (the shortest header) are now waited for, and quoted.
    @Test("input that is no FIT file is judged and quoted on its first 12 bytes, however the reads cut it")
    func notFITJudgedOnTwelveBytes() throws {
        let bytes = try readBytes(RepositoryPaths.root + "/Fuzz/Regressions/fit/not-fit-judged-on-first-read.fit")
        let whole = decode(bytes, format: .fit)
        #expect(
            whole.diagnostics.map(\.description) == [
                "byte 0: garbage: not a FIT file: it begins 00 94 54 08 82 01 00 00 2E 46 49 54, where a FIT header has its length (12 or 14) and \".FIT\" at bytes 8 to 11"
            ])
        for cut in [1, 4, 11, 12, 59] {
            #expect(decode(bytes, format: .fit, chunkSizes: [cut]).diagnostics == whole.diagnostics, "cut at \(cut)")
        }
        let short = decode([0x0E, 0x10, 0x2E], format: .fit).diagnostics.map(\.description)
        #expect(short.count == 1 && short[0].hasPrefix("byte 0: garbage: not a FIT file: it begins 0E 10 2E, where"))
    }
}
