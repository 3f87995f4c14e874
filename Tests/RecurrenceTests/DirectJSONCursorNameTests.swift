import Foundation
import TestSupport
import Testing

@testable import Recurrence

/// The word-at-a-time reading of member names and the short comparison of
/// bytes, against the plain reads they stand for.
@Suite struct DirectJSONCursorNameTests {
    /// What `memberName()` reads from `text`, and where it leaves the
    /// cursor; `nil` when it gives up.
    func memberName(in text: [UInt8]) -> (name: [UInt8], end: Int)? {
        text.withUnsafeBufferPointer { bytes in
            var cursor = DirectJSONCursor(bytes, at: 0)
            return cursor.memberName().map { (Array($0), cursor.position) }
        }
    }

    /// The same read as a string, then the colon.
    func plainRead(in text: [UInt8]) -> (name: [UInt8], end: Int)? {
        text.withUnsafeBufferPointer { bytes in
            var cursor = DirectJSONCursor(bytes, at: 0)
            guard let name = cursor.plainString(), cursor.take(":") else { return nil }
            return (Array(name), cursor.position)
        }
    }

    @Test("a name of any length, before any colon and blanks, in any room, reads as a string and its colon")
    func namesAgainstPlainReads() {
        let seed = SeededRandom.testSeed(default: 97)
        print("DirectJSONCursorNameTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let nameBytes: [UInt8] = Array("abcxyzAZ09_-é".utf8) + [0x22, 0x5C, 0x01, 0x1F, 0x7F, 0xFF]
        let afterQuote = [":", " :", "  :", "\t:", "\n:", " ", "", ",", " x"].map { Array($0.utf8) }
        let blanksBefore = ["", " ", "\n   ", "\t"].map { Array($0.utf8) }
        var fastReads = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...20, using: &random)
            // Mostly plain letters, now and then a byte that stops a plain read.
            let name = (0..<length).map { _ in
                Int.random(in: 0..<8, using: &random) == 0
                    ? nameBytes.randomElement(using: &random)! : UInt8.random(in: 0x61...0x7A, using: &random)
            }
            let closing: [UInt8] = Int.random(in: 0..<20, using: &random) == 0 ? [] : [0x22]
            let after = afterQuote.randomElement(using: &random)!
            let tail = Array(repeating: UInt8(ascii: " "), count: Int.random(in: 0...24, using: &random))
            let text = blanksBefore.randomElement(using: &random)! + [0x22] + name + closing + after + tail
            let expected = plainRead(in: text)
            let read = memberName(in: text)
            #expect(read?.name == expected?.name && read?.end == expected?.end, "\(text)")
            let quote = text.firstIndex(of: 0x22)!
            let plainName = name.count <= 15 && name.allSatisfy { (0x61...0x7A).contains($0) }
            let colonAtOnce = !closing.isEmpty && (after == Array(":".utf8) || after == Array(" :".utf8))
            if plainName, colonAtOnce, quote + 19 <= text.count { fastReads += 1 }
        }
        // Names that the word-at-a-time path reads came often, not only
        // the ones it leaves to the plain read.
        // About one text in twenty (1 050 of 20 000, give or take 35):
        // half of that leaves room for any seed.
        #expect(fastReads > 500)
    }

    @Test("bytes compare equal exactly when they are the same, at every length")
    func shortComparison() {
        var random = SystemRandomNumberGenerator()
        for length in 0...40 {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                var other = bytes
                var changed = false
                if length > 0, Bool.random(using: &random) {
                    let index = Int.random(in: 0..<length, using: &random)
                    other[index] ^= UInt8.random(in: 1...255, using: &random)
                    changed = true
                }
                let same = bytes.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { a.hasSameBytes(as: $0) } }
                #expect(same == !changed, "length \(length)")
                let longer = other + [0]
                let sameAsLonger = bytes.withUnsafeBufferPointer { a in
                    longer.withUnsafeBufferPointer { a.hasSameBytes(as: $0) }
                }
                #expect(!sameAsLonger)
            }
        }
    }
}
