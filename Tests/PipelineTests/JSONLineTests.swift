import Foundation
import Pipeline
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
}
