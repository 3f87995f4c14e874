import FeedParsing
import GeoCore
import TestSupport
import Testing

/// STYLE.md item 5: every decoder gives the same fixes and diagnostics
/// whether fed the whole input, one byte at a time, or random chunks
/// (with empty chunks in between).
@Suite("Chunk boundaries")
struct ChunkBoundaryTests {
    static let seed = SeededRandom.testSeed(default: 0x5EED_C4A7)

    static func fingerprint(_ batch: FeedBatch) -> [String] {
        batch.fixes.map(describe) + batch.waypoints.map { "\($0)" }
            + batch.diagnostics.map { "\($0.code) \($0.location.line) \($0.location.byteOffset)" }
    }

    @Test("corpus files decode identically in any chunking", .needsSharedCorpus, arguments: CorpusEntry.all)
    func corpusFile(entry: CorpusEntry) throws {
        let bytes = try readBytes(entry.absolutePath)
        let options = FeedDecodingOptions(collectWaypoints: true)
        let whole = Self.fingerprint(decode(bytes, format: entry.format, options: options))
        let bytewise = Self.fingerprint(
            decode(bytes, format: entry.format, chunkSizes: repeatElement(1, count: bytes.count), options: options))
        #expect(bytewise == whole, "one byte at a time")
        print("ChunkBoundaryTests seed \(Self.seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: Self.seed ^ UInt64(truncatingIfNeeded: entry.path.hashValueStable))
        let sizes = (0..<bytes.count).map { _ in Int.random(in: 0...97, using: &random) }
        let chunked = Self.fingerprint(decode(bytes, format: entry.format, chunkSizes: sizes, options: options))
        #expect(chunked == whole, "random chunks")
        // Detected, lines of text before the first record are a banner (ignored, not garbage): the same fixes.
        let sniffedWhole = decode(bytes, format: nil, options: options)
        #expect(sniffedWhole.fixes == decode(bytes, format: entry.format, options: options).fixes, "format detected")
        let sniffed = Self.fingerprint(decode(bytes, format: nil, chunkSizes: sizes, options: options))
        #expect(sniffed == Self.fingerprint(sniffedWhole), "random chunks, format detected")
    }

    @Test("gpsd JSON lines decode identically in any chunking", .needsSharedCorpus)
    func gpsdLines() throws {
        let path = RepositoryPaths.corpus + "/nmea/gpsd/beidou-bd.log.chk"
        let bytes = try readBytes(path)
        let whole = Self.fingerprint(decode(bytes, format: .gpsd))
        #expect(!whole.isEmpty)
        #expect(Self.fingerprint(decode(bytes, format: .gpsd, chunkSizes: repeatElement(1, count: bytes.count))) == whole)
        var random = SeededRandom(seed: Self.seed)
        let sizes = (0..<bytes.count).map { _ in Int.random(in: 0...300, using: &random) }
        #expect(Self.fingerprint(decode(bytes, format: .gpsd, chunkSizes: sizes)) == whole)
    }

    @Test("chunk sizes swept from 1 to the whole input give the same fixes", .needsSharedCorpus)
    func sweep() throws {
        let bytes = try readBytes(RepositoryPaths.corpus + "/nmea/gpsd/isync.log")
        let whole = Self.fingerprint(decode(bytes, format: .nmea))
        for size in stride(from: 1, through: bytes.count, by: 37) {
            #expect(
                Self.fingerprint(decode(bytes, format: .nmea, chunkSizes: repeatElement(size, count: bytes.count))) == whole,
                "size \(size)")
        }
    }
}

extension String {
    /// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
    var hashValueStable: UInt64 {
        utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }
}
