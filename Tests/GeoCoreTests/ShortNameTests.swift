import TestSupport
import Testing

@testable import GeoCore

@Suite("Short names")
struct ShortNameTests {
    /// Random names of 0–40 bytes, from an alphabet with quotes, bytes
    /// ≥ 0x80 and 0, each also changed at every position: a name of up to
    /// 16 bytes packs, unpacks to its bytes, is equal exactly to the names
    /// with its bytes, is plain exactly when every byte is ASCII and none
    /// a quote, and hashes as its bytes do; a longer one does not pack.
    @Test("seeded: packing keeps the bytes, equality, plainness and the hash")
    func packsLikeTheBytes() {
        let seed = SeededRandom.testSeed(default: 83)
        print("ShortNameTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x22, 0x23, 0x41, 0x7F, 0x80, 0xA2, 0xC3, 0xFF]
        let hashSeed = random.next()
        for _ in 0..<3_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in
                random.next() % 4 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(0x61 + random.next() % 26)
            }
            let short = bytes.withUnsafeBytes { ShortName($0) }
            guard let short else {
                #expect(count > 16, "\(bytes) did not pack, seed \(seed)")
                continue
            }
            #expect(count <= 16)
            #expect(short.bytes == bytes, "seed \(seed)")
            #expect(short.isASCIIWithoutQuotes == bytes.allSatisfy { $0 < 0x80 && $0 != 0x22 }, "\(bytes), seed \(seed)")
            #expect(NameHash.hash(short, seed: hashSeed) == bytes.withUnsafeBytes { NameHash.hash($0, seed: hashSeed) })
            for position in 0..<count {
                var changed = bytes
                changed[position] ^= UInt8(1 + random.next() % 255)
                #expect(changed.withUnsafeBytes { ShortName($0) } != short, "\(bytes) changed at \(position), seed \(seed)")
            }
            let longer = bytes + [0]
            #expect(longer.withUnsafeBytes { ShortName($0) } != short, "\(bytes) and a 0 byte more, seed \(seed)")
            #expect(bytes.withUnsafeBytes { ShortName($0) } == short)
        }
    }
}
