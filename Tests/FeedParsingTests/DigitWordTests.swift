import FeedParsing
import TestSupport
import Testing

@Suite("Digit runs read a word at a time")
struct DigitWordTests {
    /// `digits[.digits]` filling the range, read byte by byte; `nil` for
    /// anything else or more than eight digits on either side.
    static func reference(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (UInt64, UInt64, Int)? {
        let text = bytes[start..<end]
        let parts = text.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 8 else { return nil }
        let fraction = parts.count == 2 ? parts[1] : []
        guard fraction.count <= 8 else { return nil }
        func value(_ digits: ArraySlice<UInt8>) -> UInt64? {
            var value: UInt64 = 0
            for byte in digits {
                guard byte &- 0x30 < 10 else { return nil }
                value = value * 10 + UInt64(byte - 0x30)
            }
            return value
        }
        guard let wholeValue = value(whole), let fractionValue = value(fraction) else { return nil }
        return (wholeValue, fractionValue, fraction.count)
    }

    @Test("agrees with a byte-by-byte read wherever the range sits in its buffer, or leaves it to it")
    func againstByteByByte() {
        let seed = SeededRandom.testSeed(default: 0xD161_7)
        print("DigitWordTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        // Digits on both sides of the range too: a run may go on past its end.
        let alphabet = Array("01234567890123456789..,*-NS".utf8)
        var quick = 0
        for _ in 0..<200_000 {
            let count = Int.random(in: 1...24, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            let start = Int.random(in: 0..<count, using: &random)
            let end = Int.random(in: (start + 1)...count, using: &random)
            let read = bytes.withUnsafeBufferPointer { DigitWord.plainDecimal($0, start, end) }
            guard let read else { continue }
            quick += 1
            let expected = Self.reference(bytes, start, end)
            #expect(
                expected.map { [$0.0, $0.1, UInt64($0.2)] } == [read.whole, read.fraction, UInt64(read.fractionDigits)],
                "\(String(decoding: bytes, as: UTF8.self)) [\(start)..<\(end)]")
        }
        // The quick read must have applied often enough to be tested.
        #expect(quick > 10_000)
    }

    @Test(
        "reads runs of up to eight digits on either side of the point",
        arguments: [
            ("12345678", 0, 8, [12_345_678, 0, 0]),
            ("1234567.87654321,x", 0, 16, [1_234_567, 87_654_321, 8]),
            ("4807.038,N,01131.000,E", 0, 8, [4807, 38, 3]),
            ("01131.000,E,1,08,0.9", 0, 9, [1131, 0, 3]),
            ("4807.,N,12345", 0, 5, [4807, 0, 0]),
        ])
    func examples(text: String, start: Int, end: Int, expected: [UInt64]) {
        let read = Array(text.utf8).withUnsafeBufferPointer { DigitWord.plainDecimal($0, start, end) }
        #expect(read.map { [$0.whole, $0.fraction, UInt64($0.fractionDigits)] } == expected)
    }

    @Test(
        "leaves to the byte-by-byte read what it cannot read",
        arguments: [
            "123456789.5,xxxxxxx",  // nine digits before the point
            ".5,xxxxxxxxxxxxxxxx",  // no digit before the point
            "12a4.5,xxxxxxxxxxxx",  // not a digit
            "12345678.5,xxxxxxxx",  // eight digits before the point, and more after them
            "12.5,x",  // fewer than eight bytes readable
        ])
    func refusals(text: String) {
        let bytes = Array(text.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
        #expect(bytes.withUnsafeBufferPointer { DigitWord.plainDecimal($0, 0, end) } == nil)
    }
}
