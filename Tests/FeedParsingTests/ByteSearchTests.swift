import FeedParsing
import TestSupport
import Testing

@Suite("Byte search")
struct ByteSearchTests {
    /// Random strings of 0–40 bytes in which the two bytes looked for are
    /// common, and bytes equal to them but for one bit (a borrow between
    /// bytes, or a near miss) too, searched from every start: the answer
    /// is the byte loop's, the string's length when neither byte is there.
    @Test("seeded: the first of two bytes is where a byte loop finds it")
    func firstIndexMatchesByteLoop() {
        let seed = SeededRandom.testSeed(default: 67)
        print("ByteSearchTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x01, 0x0A, 0x0B, 0x0D, 0x0C, 0x2C, 0x2D, 0x22, 0x23, 0x80, 0x8A, 0xFF]
        for _ in 0..<3_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in
                random.next() % 3 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(0x61 + random.next() % 26)
            }
            let (a, b) = (
                alphabet[Int(random.next() % UInt64(alphabet.count))], alphabet[Int(random.next() % UInt64(alphabet.count))]
            )
            for start in 0...count {
                let expected = bytes[start...].firstIndex { $0 == a || $0 == b } ?? count
                let found = bytes.withUnsafeBytes { ByteSearch.firstIndex(of: a, or: b, in: $0, from: start) }
                #expect(found == expected, "\(bytes) from \(start) for \(a) or \(b), seed \(seed)")
            }
        }
    }
}
