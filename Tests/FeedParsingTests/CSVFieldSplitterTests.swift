import FeedParsing
import TestSupport
import Testing

@Suite("CSV field splitter")
struct CSVFieldSplitterTests {
    /// Random lines of 0–60 bytes, thick with delimiters, quotes, blanks
    /// and tabs, split one after another into the same arrays (the quick
    /// split writes over the last line's ranges and trims the rest): the
    /// ranges are those of the byte-by-byte split into fresh arrays.
    @Test("seeded: the quick split gives the byte-by-byte split's ranges, line after line")
    func quickSplitMatchesByteLoop() {
        let seed = SeededRandom.testSeed(default: 71)
        print("CSVFieldSplitterTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet: [UInt8] = Array(",;\t| \"\"ab1.-".utf8)
        var starts: [Int] = []
        var ends: [Int] = []
        for _ in 0..<20_000 {
            let delimiter = Array(",;\t|".utf8)[Int(random.next() % 4)]
            let quoted = random.next() % 4 == 0
            let count = Int(random.next() % 61)
            let line = (0..<count).map { _ in
                var byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                if !quoted, byte == 0x22 { byte = 0x61 }
                return byte
            }
            var expectedStarts: [Int] = []
            var expectedEnds: [Int] = []
            line.withUnsafeBufferPointer {
                CSVFieldSplitter.split($0, delimiter: delimiter, starts: &starts, ends: &ends)
                CSVFieldSplitter.splitAnyLine($0, delimiter: delimiter, starts: &expectedStarts, ends: &expectedEnds)
            }
            #expect(starts == expectedStarts, "\(String(decoding: line, as: UTF8.self)), seed \(seed)")
            #expect(ends == expectedEnds, "\(String(decoding: line, as: UTF8.self)), seed \(seed)")
        }
    }
}
