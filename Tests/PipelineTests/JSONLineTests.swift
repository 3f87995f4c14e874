import Foundation
import Pipeline
import TestSupport
import Testing

@Suite("JSON string literals")
struct JSONLineTests {
    @Test(
        "a name is quoted as JSONSerialization reads it back, escapes only where JSON needs them",
        arguments: [
            "Pharmacy", "", "Café Škola — 藥局 🐈", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak\r",
            "bell\u{07}", "\u{1F}", "/slash/",
        ])
    func quoted(_ name: String) throws {
        let literal = JSONLine.quoted(name)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
        #expect(decoded == [name], "\(literal)")
        #expect(!literal.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, "\(literal)")
        if !name.contains(where: { $0 == "\"" || $0 == "\\" || $0.unicodeScalars.contains { $0.value < 0x20 } }) {
            #expect(literal == "\"" + name + "\"")
        }
    }

    @Test(
        "a key quoted once writes the same line as the key given as text",
        arguments: ["time", "window_start", "", "say \"hi\"", "back\\slash", "tab\there", "Café — 藥局"])
    func keyQuotedOnce(_ name: String) {
        let key = JSONLine.Key(name)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        var given = JSONLine()
        given.add(name, "value \"quoted\"")
        given.add(name, nil as String?)
        given.add(name, date: date)
        given.add(name, date: nil)
        given.add(name, 12.5)
        given.add(name, 42)
        var quotedOnce = JSONLine()
        quotedOnce.add(key, "value \"quoted\"")
        quotedOnce.add(key, nil as String?)
        quotedOnce.add(key, date: date)
        quotedOnce.add(key, date: nil)
        quotedOnce.add(key, 12.5)
        quotedOnce.add(key, 42)
        #expect(quotedOnce.string == given.string)
        #expect(given.string.hasPrefix("{" + JSONLine.quoted(name) + ":\"value \\\"quoted\\\"\","), "\(given.string)")
    }

    @Test(
        "seeded: a line built in place at the end of a writer's buffer is the line built on its own, long or short")
    func writtenInPlace() {
        let seed = SeededRandom.testSeed(default: 23)
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "Errand 12", "say \"hi\"", "tab\there", "Café — 藥局 🐈", "back\\slash", "\u{1}", ""]
        let keys = ["time", "window_start", "due", "k", "a key of some length", "é"]
        let dates = [1_700_000_000, 1_700_000_000.25, 1_700_086_399.999, -86_400.5, 9.3e9].map(Date.init(timeIntervalSince1970:))
        let output = ByteWriter(descriptor: FileHandle.nullDevice.fileDescriptor)
        for round in 0..<400 {
            var alone = JSONLine()
            var steps: [(inout JSONLine) -> Void] = []
            for _ in 0..<Int(random.next() % 24) {
                let name = keys[Int(random.next() % UInt64(keys.count))]
                let key = JSONLine.Key(name)
                // Now and then a text longer than the room a line is built in.
                let repeats = random.next() % 10 == 0 ? 300 : Int(random.next() % 4)
                let text = String(repeating: pieces[Int(random.next() % UInt64(pieces.count))], count: repeats)
                let date = random.next() % 5 == 0 ? nil : dates[Int(random.next() % UInt64(dates.count))]
                let number = Double(Int(random.next() % 2_000)) / 8 - 100
                switch random.next() % 9 {
                case 0: steps.append { $0.add(key, text) }
                case 1: steps.append { $0.add(name, text as String?) }
                case 2: steps.append { $0.add(key, date: date) }
                case 3: steps.append { $0.add(name, date: date) }
                case 4: steps.append { $0.add(key, number) }
                case 5: steps.append { $0.add(key, Int(number)) }
                case 6: steps.append { $0.add(name, strings: [text, name, text]) }
                case 7: steps.append { $0.add(name, interval: date == nil ? nil : number...(number + 1)) }
                default:
                    var inner = JSONLine()
                    inner.add(key, text)
                    inner.add(name, date: date)
                    steps.append { $0.add(name, object: inner) }
                }
            }
            for step in steps { step(&alone) }
            output.bytes = Array("earlier lines\n".utf8)
            JSONLine.writeLine(to: output) { line in for step in steps { step(&line) } }
            let expected = "earlier lines\n" + alone.string + "\n"
            #expect(String(decoding: output.bytes, as: UTF8.self) == expected, "round \(round), seed \(seed)")
        }
        output.bytes = []
    }
}
