import Foundation
import Geofencing
import TestSupport
import Testing

@testable import Pipeline

/// A shard's item lines, written and read without `JSONEncoder` and
/// `JSONDecoder`, held to them.
@Suite("Shard lines")
struct ShardLineTests {
    /// Names that need no escape in JSON and names that do.
    static let names = ["dev-000001", "", "Café Škola 🐈", "a/b", "say \"hi\"", "back\\slash", "tab\there", "\u{1}"]

    /// Numbers of every size and form: whole, tiny, huge, negative zero.
    static let numbers: [Double] = [
        52.5130892, -13.4711314, 0, -0.0, 1, 180, 411.8812962622977, 1e-7, .leastNonzeroMagnitude, 2.2250738585072014e-308,
        1.7976931348623157e308, 123_456_789_012_345_680, 0.1, 1e21,
    ]

    /// Seeded items: the direct line reads back with `JSONDecoder` as the
    /// item; the scanner reads it, and the encoder's own line (its keys
    /// in another order), as the item, unless a string needs an escape.
    @Test("seeded: items written directly read back alike by the scanner and JSONDecoder")
    func itemsRoundTrip() throws {
        let seed = SeededRandom.testSeed(default: 41)
        print("ShardLineTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        func pick<Element>(_ elements: [Element]) -> Element { elements[Int(random.next() % UInt64(elements.count))] }
        func maybe() -> Bool { random.next() % 2 == 0 }
        func time() -> [Int64] { [pick([0, 1_700_000_000_000_000_000, .min, .max, -5]), Int64(random.next() % 10)] }
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]  // as the shard's writer has it
        for _ in 0..<2_000 {
            let transitions = (0..<Int(random.next() % 4)).map { _ in
                ShardTransition(
                    kind: pick(Transition.Kind.allCases), time: time(), region: Int(random.next() % 20_000),
                    distance: pick(Self.numbers), unmonitored: maybe() ? nil : maybe())
            }
            let item = ShardItem(
                input: maybe() ? Int(random.next() % 1_000_000) : nil, finishing: maybe() ? pick(Self.names) : nil,
                feed: Int(random.next() % 3), outcome: pick([.released, .late, .untimed]), time: maybe() ? time() : nil,
                position: (0..<Int(random.next() % 3 + 1)).map { _ in pick(Self.numbers) },
                device: maybe() ? pick(Self.names) : nil, transitions: maybe() ? transitions : nil,
                inaccurate: maybe() ? (0..<Int(random.next() % 3)).map { _ in Int(random.next() % 100) } : nil)
            var line: [UInt8] = Array("kept".utf8)
            #expect(item.appendLine(to: &line))
            #expect(line.prefix(4).elementsEqual("kept".utf8), "appended after what was there")
            let written = Array(line.dropFirst(4))
            #expect(try decoder.decode(ShardLine.self, from: Data(written)).item == item)
            let escapes = [item.finishing, item.device].contains { name in
                name.map { $0.utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 } }
                    ?? false
            }
            let encoded = Array(try encoder.encode(ShardLine(item: item)))
            for text in [written, encoded] {
                let scanned = text.withUnsafeBytes(ShardItem.scanned(from:))
                #expect(scanned == (escapes ? nil : item), "\(String(decoding: text, as: UTF8.self))")
            }
        }
    }

    /// Lines the writer does not write: the scanner reads none of them
    /// otherwise than `JSONDecoder`: it leaves them (nil), or reads what
    /// the decoder reads.
    @Test(
        "other lines are left to JSONDecoder or read as it reads them",
        arguments: [
            #"{"item":{"feed":0,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2]},"summary":null}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"extra":1}}"#,
            #"{"item":{"feed":0,"feed":1,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"device":null}}"#,
            #"{"item":{"feed":0.0,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":01,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":1e2,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":-0,"outcome":"late","position":[-0,2.5E+3]}}"#,
            #"{"item":{"feed":99999999999999999999,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":0,"outcome":"lost","position":[1,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late"}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2,]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1e999]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[.5]}}"#,
            // Zeros with an exponent, which JSONDecoder takes or refuses by
            // their digits (fuzz-shard: Fuzz/Regressions/shard/).
            #"{"item":{"feed":0,"outcome":"late","position":[1e-400,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[0e5,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[0.0e5,-0.000]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2]}} "#,
            #"{ "item":{"feed":0,"outcome":"late","position":[1,2]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2]}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"time":[1,2,3]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"transitions":[{"kind":"enter","time":[1,0],"region":3,"distance":4}]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"transitions":[{"kind":"enter","time":[1,0],"region":3}]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"transitions":[{"kind":"leave","time":[1,0],"region":3,"distance":4}]}}"#,
            #"{"item":{"feed":0,"outcome":"late","position":[1,2],"transitions":[{"kind":"exit","time":[1,0],"region":3,"distance":4,"unmonitored":1}]}}"#,
            "{\"item\":{\"feed\":0,\"outcome\":\"late\",\"position\":[1,2],\"device\":\"\u{FF}\"}}",
            #"{"header":{"version":1,"index":0,"count":2,"arguments":[],"directory":"/"}}"#,
            #"{"summary":{"accepted":0}}"#,
            "",
        ])
    func otherLines(_ text: String) {
        let bytes = Array(text.utf8)
        guard let scanned = bytes.withUnsafeBytes(ShardItem.scanned(from:)) else { return }
        #expect(scanned == (try? JSONDecoder().decode(ShardLine.self, from: Data(bytes)))?.item)
    }

    @Test("a number JSON cannot hold is not written directly")
    func infiniteNumbers() {
        for item in [
            ShardItem(input: 1, finishing: nil, feed: 0, outcome: .late, position: [.nan, 1]),
            ShardItem(
                input: 1, finishing: nil, feed: 0, outcome: .released, position: [1, 2],
                transitions: [ShardTransition(kind: .enter, time: [1, 0], region: 1, distance: .infinity)]),
        ] {
            var line: [UInt8] = [1, 2]
            #expect(!item.appendLine(to: &line))
            #expect(line == [1, 2])
        }
    }
}
