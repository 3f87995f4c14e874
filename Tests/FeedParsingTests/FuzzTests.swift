import FeedParsing
import TestSupport
import Testing

/// A seeded random-mutation fuzz test over the corpus (libFuzzer's
/// `-sanitize=fuzzer` does not build with this toolchain's runtime here):
/// each iteration flips, inserts, deletes or duplicates bytes of a corpus
/// file and decodes the result in random chunks with every decoder. It is
/// bounded by an iteration count, not by the clock; `FUZZ_ITERATIONS`
/// raises it locally. Passing means: no crash, no hang, and decoding stays
/// chunking-independent on mutated input too, XML errors included (libxml2
/// is given the same 64 KiB pieces however the input is cut).
@Suite("Fuzz (seeded mutations of the corpus)", .needsSharedCorpus)
struct FuzzTests {
    static let seed = SeededRandom.testSeed(default: 0xF022_2025)
    static let iterations = environment("FUZZ_ITERATIONS").flatMap(Int.init) ?? 1500

    static func mutate(_ input: [UInt8], using random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        let interesting: [UInt8] = [0x24, 0x2A, 0x2C, 0x0D, 0x0A, 0x3C, 0x3E, 0x22, 0x2E, 0x2D, 0x00, 0xFF, 0x7B, 0x26]
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            guard !bytes.isEmpty else {
                bytes.append(interesting.randomElement(using: &random)!)
                continue
            }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.insert(interesting.randomElement(using: &random)!, at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
            case 3:
                let end = min(bytes.count, at + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default: bytes.removeSubrange(at...)
            }
        }
        return bytes
    }

    @Test("mutated corpus files never crash a decoder and stay chunking-independent")
    func mutations() throws {
        print("FuzzTests seed \(Self.seed), \(Self.iterations) iterations (REPEAT_SEED / FUZZ_ITERATIONS to change)")
        var random = SeededRandom(seed: Self.seed)
        let corpus = try CorpusEntry.all.map { ($0, try readBytes($0.absolutePath)) }
        try #require(!corpus.isEmpty)
        let formats: [FeedFormat?] = [.nmea, .gpx, .csv, .gpsd, .kml, .tcx, .fit, .takeout, .timeline, nil]
        for iteration in 0..<Self.iterations {
            let (entry, original) = corpus.randomElement(using: &random)!
            let mutated = Self.mutate(original, using: &random)
            let format = Bool.random(using: &random) ? entry.format : formats.randomElement(using: &random)!
            let whole = decode(mutated, format: format)
            let sizes = (0..<64).map { _ in Int.random(in: 0...512, using: &random) }
            let chunked = decode(mutated, format: format, chunkSizes: sizes)
            #expect(chunked.fixes == whole.fixes, "iteration \(iteration): \(entry.path) as \(format?.rawValue ?? "auto")")
            #expect(
                chunked.diagnostics == whole.diagnostics, "iteration \(iteration): \(entry.path) as \(format?.rawValue ?? "auto")"
            )
        }
    }
}
