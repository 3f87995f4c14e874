import Foundation
import GeoCore
import TestSupport
import Testing

@testable import Recurrence

/// The tasks file's short forms read at fixed places — durations such as
/// `36h`, dates of whole seconds in UTC — against the general readings.
@Suite struct DirectShortFormsTests {
    @Test("every duration of two or three bytes reads as the general reading reads it")
    func shortDurations() {
        let alphabet = Array("0123456789smhdwyoSMDx .".utf8)
        var texts: [[UInt8]] = []
        for a in alphabet {
            for b in alphabet {
                texts.append([a, b])
                for c in alphabet { texts.append([a, b, c]) }
            }
        }
        var read = 0
        for text in texts {
            let general = CalendarDuration(asciiTrimmedAtStart: text[...])
            let direct = text.withUnsafeBufferPointer { CalendarDuration(asciiTrimmedAtStart: $0) }
            #expect(direct == general, "'\(String(decoding: text, as: UTF8.self))'")
            if direct != nil { read += 1 }
        }
        // 10 digits × 7 one-letter units, 100 × 7, the long names, `1mo`…
        #expect(read > 800)
    }

    /// The date of the string before `cursor` as the direct reader takes
    /// it: in place when it is 20 bytes of whole seconds, else read whole.
    func placedDate(_ text: [UInt8]) -> (time: Timestamp?, end: Int) {
        text.withUnsafeBufferPointer { bytes in
            var cursor = DirectJSONCursor(bytes, at: 0)
            let time =
                cursor.string(ofLength: 20, RFC3339.parseWholeSeconds)
                ?? cursor.plainString().flatMap { RFC3339.parse(utf8: $0) }
            return (time, cursor.position)
        }
    }

    /// The same date read as a whole string first.
    func scannedDate(_ text: [UInt8]) -> (time: Timestamp?, end: Int) {
        text.withUnsafeBufferPointer { bytes in
            var cursor = DirectJSONCursor(bytes, at: 0)
            let time = cursor.plainString().flatMap { RFC3339.parse(utf8: $0) }
            return (time, cursor.position)
        }
    }

    @Test("a date string, whole or cut, changed at any byte, reads in place as it reads whole")
    func datesInPlace() {
        let seed = SeededRandom.testSeed(default: 101)
        print("DirectShortFormsTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let replacements = Array("0123456789-:TtZz .+\"\\".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var inPlace = 0
        for _ in 0..<20_000 {
            let seconds = Int64.random(in: -2_000_000_000...4_000_000_000, using: &random)
            var date = Array(RFC3339.format(Timestamp(nanoseconds: seconds * 1_000_000_000, fractionDigits: 0)).utf8)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let index = Int.random(in: 0..<date.count, using: &random)
                date[index] = replacements.randomElement(using: &random)!
            case 1:
                date.removeLast(Int.random(in: 1...3, using: &random))
            case 2:
                date += Array(".5".utf8)
            default:
                break
            }
            let blanks = Array(repeating: UInt8(ascii: " "), count: Int.random(in: 0...2, using: &random))
            let tail = Array(#"", "x": 1}"#.utf8).prefix(Int.random(in: 0...10, using: &random))
            let text = blanks + [UInt8(ascii: "\"")] + date + tail
            let placed = placedDate(text)
            let scanned = scannedDate(text)
            #expect(placed.time == scanned.time, "\(String(decoding: text, as: UTF8.self))")
            if scanned.time != nil { #expect(placed.end == scanned.end) }
            if date.count == 20, !tail.isEmpty, placed.time != nil { inPlace += 1 }
        }
        // Some 5 370 of 20 000, give or take 75: well clear for any seed.
        #expect(inPlace > 4_000)
    }
}
