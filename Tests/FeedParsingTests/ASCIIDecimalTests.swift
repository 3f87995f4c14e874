import FeedParsing
import Foundation
import TestSupport
import Testing

@Suite("Hand-written decimal parser")
struct ASCIIDecimalTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ASCIIDecimal.double($0, 0, $0.count) }
    }

    @Test("agrees bit for bit with strtod on random decimals of every shape")
    func againstStrtod() {
        let seed = SeededRandom.testSeed(default: 0xDEC1_3A1)
        print("ASCIIDecimalTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<200_000 {
            let integerDigits = Int.random(in: 0...5, using: &random)
            let fractionDigits = Int.random(in: 0...12, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            text +=
                integerDigits == 0 ? "0" : String((0..<integerDigits).map { _ in "0123456789".randomElement(using: &random)! })
            if fractionDigits > 0 {
                text += "." + String((0..<fractionDigits).map { _ in "0123456789".randomElement(using: &random)! })
            }
            let expected = strtod(text, nil)
            #expect(Self.parse(text)?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test("the quick pass for plain numbers reads what the full parse reads, or leaves it to it")
    func plainPassAgreesWithFullParse() {
        let seed = SeededRandom.testSeed(default: 0x9_1A1D)
        print("ASCIIDecimalTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("0123456789012345678901234567890123456789..-+e \t\r".utf8)
        var taken = 0
        for round in 0..<200_000 {
            // Half digits-and-point shapes up to 22 bytes (about the 19-byte
            // bound), half anything from the alphabet.
            let length = Int.random(in: 0...22, using: &random)
            let bytes: [UInt8] = (0..<length).map { _ in
                round.isMultiple(of: 2) && Int.random(in: 0..<12, using: &random) != 0
                    ? UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)
                    : alphabet.randomElement(using: &random)!
            }
            bytes.withUnsafeBufferPointer { buffer in
                guard let plain = ASCIIDecimal.parsePlain(buffer, 0, buffer.count) else { return }
                taken += 1
                #expect(plain == ASCIIDecimal.parseAnyForm(buffer, 0, buffer.count), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(taken > 20_000)
    }

    @Test(
        "long, exponent and edge forms",
        arguments: [
            "40.18894976936280727386474609375", "-105.178360976278781890869140625", "1e+25", "1.5E-3", "0.000000000000000000001",
            "123456789012345678901234", "  42.5 ", "+7", "9007199254740993", "0.1",
        ])
    func edgeForms(text: String) {
        #expect(Self.parse(text)?.bitPattern == strtod(text, nil).bitPattern)
    }

    @Test("non-numbers are rejected", arguments: ["", " ", "-", ".", "1.2.3", "12a", "e5", "1e", "--1", "0x10", "nan", "inf"])
    func rejects(text: String) {
        #expect(Self.parse(text) == nil)
    }
}
