import GeoCore
import TestSupport
import Testing

@Suite("Byte words")
struct ByteWordsTests {
    /// Random strings of 0–40 bytes, from an alphabet that has quotes and
    /// bytes ≥ 0x80 next to their neighbours, against byte-by-byte answers;
    /// each string also compared with itself changed at every position, so
    /// a difference in the first, the last or an overlapped byte is caught.
    @Test("seeded: equality and the ASCII checks agree with a byte loop")
    func matchByteLoops() {
        let seed = SeededRandom.testSeed(default: 59)
        print("ByteWordsTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x20, 0x21, 0x22, 0x23, 0x41, 0x7F, 0x80, 0xA2, 0xC3, 0xFF]
        for _ in 0..<3_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in
                random.next() % 4 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(0x61 + random.next() % 26)
            }
            let plain = bytes.allSatisfy { $0 < 0x80 && $0 != 0x22 }
            bytes.withUnsafeBytes { #expect(ByteWords.isASCIIWithoutQuotes($0) == plain, "\(bytes), seed \(seed)") }
            let ascii = bytes.allSatisfy { $0 < 0x80 }
            bytes.withUnsafeBytes { #expect(ByteWords.isASCII($0) == ascii, "\(bytes), seed \(seed)") }
            for position in 0..<count {
                var changed = bytes
                changed[position] ^= UInt8(1 + random.next() % 255)
                let equal = bytes.withUnsafeBytes { a in changed.withUnsafeBytes { ByteWords.equal(a, $0) } }
                #expect(!equal, "\(bytes) changed at \(position), seed \(seed)")
            }
            let copy = bytes
            #expect(bytes.withUnsafeBytes { a in copy.withUnsafeBytes { ByteWords.equal(a, $0) } })
            let longer = bytes + [0x61]
            #expect(!bytes.withUnsafeBytes { a in longer.withUnsafeBytes { ByteWords.equal(a, $0) } })
        }
    }

    /// Random strings of 0–40 bytes from an alphabet of the bytes JSON
    /// escapes and their neighbours (0x1F and 0x20, `!`, `#`, `[`, `]`),
    /// against a byte loop; a string that needs no escape is also checked
    /// with one put at every position.
    @Test("seeded: the JSON escape check agrees with a byte loop")
    func jsonEscapeMatchesByteLoop() {
        let seed = SeededRandom.testSeed(default: 61)
        print("ByteWordsTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
        func needsEscape(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
        for _ in 0..<3_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in
                random.next() % 3 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(0x61 + random.next() % 26)
            }
            bytes.withUnsafeBytes { #expect(ByteWords.needsJSONEscape($0) == needsEscape(bytes), "\(bytes), seed \(seed)") }
            guard !needsEscape(bytes) else { continue }
            for position in 0..<count {
                var escaped = bytes
                escaped[position] = [0x00, 0x1F, 0x22, 0x5C][Int(random.next() % 4)]
                escaped.withUnsafeBytes { #expect(ByteWords.needsJSONEscape($0), "\(escaped), seed \(seed)") }
            }
        }
    }
}
