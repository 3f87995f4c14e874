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
}
