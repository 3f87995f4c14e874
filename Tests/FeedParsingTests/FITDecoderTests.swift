import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// Garmin FIT files as a feed: what GPSBabel reads from its own FIT, what
/// fitdecode reads from a watch-style file, and damaged files.
@Suite("FIT decoder")
struct FITDecoderTests {
    static let gpsbabelPath = RepositoryPaths.track("fit/gpsbabel-visnjan-car.fit")
    static let watchPath = RepositoryPaths.track("fit/repeat-watch-features.fit")

    /// The rows of a reference reading: a header line, then comma-separated values.
    static func rows(_ path: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("GPSBabel's FIT of the Višnjan drive reads as GPSBabel reads it, in any chunking")
    func gpsbabelCourse() throws {
        let bytes = try readBytes(Self.gpsbabelPath)
        let batch = decode(bytes, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.count == 104)
        // GPSBabel prints 6 decimals of the semicircles, heights to 0.1 m, speeds to 0.01 m/s.
        try expectGPSBabelReading(
            batch.fixes, at: Self.gpsbabelPath + ".expected.gpsbabel.unicsv", heightTolerance: 0.0501)
        // The GPX it was written from: the same times.
        let gpx = decode(try readBytes(RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")), format: .gpx).fixes
        #expect(batch.fixes.map(\.time) == gpx.map(\.time))
        for size in [1, 7, 64, 4096] {
            let chunked = decode(bytes, format: .fit, chunkSizes: repeatElement(size, count: bytes.count))
            #expect(chunked.fixes == batch.fixes && chunked.diagnostics.isEmpty, "chunks of \(size) bytes")
        }
    }

    @Test(
        "a watch's FIT reads as fitdecode reads it: compressed times, both byte orders, developer fields, chained files"
    )
    func watchFeatures() throws {
        // file,time,lat,lon,ele,speed,accuracy,course_point
        let reference = try Self.rows(Self.watchPath + ".expected.fitdecode.csv")
        let withPosition = reference.filter { !$0[2].isEmpty && $0[7].isEmpty }
        let bytes = try readBytes(Self.watchPath)
        let batch = decode(bytes, format: nil, options: FeedDecodingOptions(collectWaypoints: true))
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        try #require(batch.fixes.count == withPosition.count && withPosition.count == 9)
        for (fix, row) in zip(batch.fixes, withPosition) {
            #expect(fix.time.map(RFC3339.format) == row[1])
            #expect(abs(fix.coordinate.latitude - Double(row[2])!) <= 5e-10, "\(row)")
            #expect(abs(fix.coordinate.longitude - Double(row[3])!) <= 5e-10, "\(row)")
            #expect(fix.elevation == Double(row[4]), "\(row)")
            #expect(fix.speed == Double(row[5]), "\(row)")
            #expect(fix.accuracy == Double(row[6]), "\(row)")
        }
        let coursePoint = try #require(reference.first { !$0[7].isEmpty })
        #expect(batch.waypoints.map(\.name) == [coursePoint[7]])
        #expect(batch.waypoints.first?.time.map(RFC3339.format) == coursePoint[1])
        let decoder = FITDecoder()
        _ = decoder.decodeAll(bytes)
        #expect(decoder.statistics.ignored == ["record without a position": 1, "course point": 1])
        for size in [1, 3, 16, 100] {
            let chunked = decode(bytes, format: .fit, chunkSizes: repeatElement(size, count: bytes.count))
            #expect(chunked.fixes == batch.fixes && chunked.diagnostics.isEmpty, "chunks of \(size) bytes")
        }
    }

    @Test("damage is located and what can be read is kept: CRCs, a cut, trailing bytes, an undefined local type")
    func damage() throws {
        let whole = try readBytes(Self.gpsbabelPath)
        let fixes = decode(whole, format: .fit).fixes
        func diagnostics(_ bytes: [UInt8]) -> (fixes: [Fix], messages: [String]) {
            let batch = decode(bytes, format: nil)
            for size in [1, 5] {
                let chunked = decode(bytes, format: .fit, chunkSizes: repeatElement(size, count: bytes.count))
                #expect(chunked.fixes == batch.fixes && chunked.diagnostics == batch.diagnostics, "chunks of \(size)")
            }
            return (batch.fixes, batch.diagnostics.map(\.description))
        }
        var badCRC = whole
        badCRC[badCRC.count - 1] ^= 0xFF
        let crc = diagnostics(badCRC)
        #expect(crc.fixes == fixes)
        #expect(
            crc.messages.count == 1 && crc.messages[0].hasPrefix("byte \(whole.count - 2): badChecksum: the FIT file's CRC is 0x")
        )

        var badHeader = whole
        badHeader[12] ^= 0x01
        let header = diagnostics(badHeader)
        #expect(header.fixes == fixes)
        #expect(header.messages.first?.hasPrefix("byte 12: badChecksum: the FIT header's CRC is 0x") == true)
        #expect(header.messages.count == 2, "the file's CRC covers the header's too")

        let cut = diagnostics(Array(whole.prefix(whole.count / 2)))
        #expect(!cut.fixes.isEmpty && Array(fixes.prefix(cut.fixes.count)) == cut.fixes)
        #expect(cut.messages.count == 1 && cut.messages[0].contains("truncated: the FIT file ends "))

        let trailing = diagnostics(whole + [0, 0, 0, 0, 0])
        #expect(trailing.fixes == fixes)
        #expect(
            trailing.messages == ["byte \(whole.count): garbage: 5 bytes after the end of the FIT file are no FIT file; ignored"])

        // The first data message (after the first definition) made local
        // type 15, which nothing defined: the file's data cannot be framed,
        // and the FIT file chained after it is still read.
        var undefined = whole
        var firstData = 14
        while whole[firstData] & 0x40 != 0 { firstData += 6 + 3 * Int(whole[firstData + 5]) }
        #expect(undefined[firstData] == 0x00)
        undefined[firstData] = 0x0F
        let watch = try readBytes(Self.watchPath)
        let chained = diagnostics(undefined + watch)
        #expect(chained.fixes == decode(watch, format: .fit).fixes)
        #expect(
            chained.messages.first
                == "byte \(firstData): garbage: a data message of local type 15 comes before any definition of that type: "
                + "the rest of the file's data cannot be framed; skipped to its end (byte \(whole.count - 2))")
        #expect(chained.messages.count == 2 && chained.messages[1].contains("badChecksum"))

        let notFIT = decode(Array("<?xml version=\"1.0\"?><gpx/>".utf8), format: .fit).diagnostics.map(\.description)
        #expect(
            notFIT == [
                "byte 0: garbage: not a FIT file: it begins 3C 3F 78 6D 6C 20 76 65 72 73 69 6F, where a FIT header has its length (12 or 14) and \".FIT\" at bytes 8 to 11"
            ])
    }

    @Test("mutated FIT files never crash the decoder and stay chunking-independent")
    func mutations() throws {
        var random = SeededRandom(seed: FuzzTests.seed)
        let files = [try readBytes(Self.gpsbabelPath), try readBytes(Self.watchPath)]
        for iteration in 0..<FuzzTests.iterations {
            let mutated = FuzzTests.mutate(files.randomElement(using: &random)!, using: &random)
            let options = FeedDecodingOptions(collectWaypoints: Bool.random(using: &random))
            let whole = decode(mutated, format: .fit, options: options)
            let sizes = (0..<64).map { _ in Int.random(in: 0...256, using: &random) }
            let chunked = decode(mutated, format: .fit, chunkSizes: sizes, options: options)
            #expect(chunked.fixes == whole.fixes, "iteration \(iteration)")
            #expect(chunked.diagnostics == whole.diagnostics, "iteration \(iteration)")
            #expect(chunked.waypoints == whole.waypoints, "iteration \(iteration)")
        }
    }

    @Test("a FIT file is told by its header, whatever its name; other formats asked for are refused")
    func sniffing() throws {
        let bytes = try readBytes(Self.gpsbabelPath)
        let prefix = Array(bytes.prefix(FeedSniffer.decisiveLength))
        #expect(FeedSniffer.detect(prefix, isComplete: true) == .fit)
        #expect(FeedSniffer.detect(Array(bytes.prefix(12)), isComplete: false) == .fit)
        #expect(NotAFeed.identify(prefix, isWholeFile: false) == nil)
        #expect(NotAFeed.identify(prefix, isWholeFile: false, format: .fit) == nil)
        #expect(NotAFeed.identify(prefix, isWholeFile: false, format: .nmea) == .fit)
        #expect("\(NotAFeed.fit)" == "a Garmin FIT file (leave --format out, or give --format fit)")
    }
}
