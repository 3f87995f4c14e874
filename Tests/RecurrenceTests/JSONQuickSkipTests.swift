import TestSupport
import Testing

@testable import Recurrence

/// The quick check of a value in one loop (JSONScanner+QuickSkip.swift)
/// against the recursive check it stands in for.
@Suite struct JSONQuickSkipTests {
    /// Pieces of values: plain ones and the ones the quick check leaves to
    /// the recursive one (escapes, bytes above ASCII), valid or not.
    static let atoms = [
        #""task-7""#, #""""#, #""2023-11-01T20:16:47Z""#, #""Café""#, #""a \"quoted\" b""#, #""\u00e9""#, "12", "-0.5e3",
        "01", "1.", "true", "false", "null", "nul", "tru", #""tab\#there""#,
    ]
    static let blanks = ["", " ", "\n   ", "\t", "\r\n"]
    /// Bytes a broken text has instead of one of its own.
    static let breakers = Array(#"{}[],:" x0\"#.utf8) + [0x0A, 0x01, 0xC3]

    /// A random value of up to `depth` levels, or a piece of one.
    static func value(_ random: inout SeededRandom, depth: Int) -> String {
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        let kind = depth == 0 ? 0 : random.next() % 3
        let count = Int(random.next() % 4)
        switch kind {
        case 0: return pick(atoms)
        case 1:
            let elements = (0..<count).map { _ in pick(blanks) + value(&random, depth: depth - 1) + pick(blanks) }
            return "[" + elements.joined(separator: ",") + pick(blanks) + "]"
        default:
            let members = (0..<count).map { index in
                pick(blanks) + #""m\#(index)""# + pick(blanks) + ":" + pick(blanks) + value(&random, depth: depth - 1)
            }
            return "{" + members.joined(separator: ",") + pick(blanks) + "}"
        }
    }

    /// Where each check leaves the text: the position, or `nil` when it
    /// finds a problem (the recursive one) or leaves the value (the quick one).
    static func ends(_ bytes: [UInt8], depth: Int = 1) -> (quick: Int?, checked: Int?) {
        bytes.withUnsafeBufferPointer { buffer in
            var quick = JSONScanner(buffer, at: 0, depth: depth)
            var checked = JSONScanner(buffer, at: 0, depth: depth)
            let checkedEnd: Int? = (try? checked.skipValue()).map { checked.position }
            return (quick.quickSkipValue() ? quick.position : nil, checkedEnd)
        }
    }

    @Test("seeded: whatever the quick check takes, the recursive check takes and leaves at the same place")
    func takesWhatTheCheckTakes() {
        let seed = SeededRandom.testSeed(default: 31)
        var random = SeededRandom(seed: seed)
        var taken = 0
        var broken = 0
        for round in 0..<3_000 {
            var bytes = Array(Self.value(&random, depth: 4).utf8)
            // Now and then a byte broken or the text cut short.
            if random.next() % 3 == 0, !bytes.isEmpty {
                bytes[Int(random.next() % UInt64(bytes.count))] = Self.breakers[Int(random.next() % UInt64(Self.breakers.count))]
            }
            if random.next() % 5 == 0 { bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1)))) }
            let (quick, checked) = Self.ends(bytes + Array(", 1]".utf8))
            if let quick {
                taken += 1
                #expect(checked == quick, "round \(round), seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            }
            if checked == nil { broken += 1 }
        }
        // The quick check took many values, and broken ones came up too.
        #expect(taken > 600, "\(taken) of 3 000 taken")
        #expect(broken > 600, "\(broken) of 3 000 broken")
    }

    @Test("a plain task, written indented or compact, is taken quickly, text beyond ASCII too; escapes are left to the check")
    func plainTasksTaken() {
        let task =
            #"{"id": "task-1", "title": "Errand 1", "start": "2023-11-01T07:08:20Z", "#
            + #""schedule": {"weekdays": {"days": ["mon", "sun"], "at": "19:30"}}, "lead": "1h", "completions": [], "#
            + #""locations": [{"lat": 45.1, "lon": -13.6, "radius": 150, "done": true, "note": null}]}"#
        let indented = task.replacingOccurrences(of: ", ", with: ",\n    ")
        for text in [task, indented] {
            let (quick, checked) = Self.ends(Array(text.utf8))
            #expect(quick != nil && quick == checked, "\(text)")
        }
        for text in [#"{"title": "Café"}"#, #"{"title": "say \"hi\""}"#] {
            let (quick, checked) = Self.ends(Array(text.utf8))
            #expect(checked == text.utf8.count)
            // Non-ASCII is checked by the same step either way; an escape is not read quickly.
            #expect(quick == (text.contains("\\") ? nil : checked), "\(text)")
        }
    }

    @Test(
        "broken values: neither check takes them",
        arguments: [
            #"{"a" 1}"#, #"{"a": 1,}"#, #"[1,]"#, #"[1 2]"#, #"{"a": 1 "b": 2}"#, #"{"a": 1"#, #"{"a": [1}"#, #"[1}"#,
            #"{a: 1}"#, "[\"tab\u{09}raw\"]", #"[tru]"#, #"[01]"#, #"[-]"#, #"{"a": }"#, #"[,1]"#, #"{"a":1,,"b":2}"#,
        ])
    func broken(_ text: String) {
        // A closing bracket after the value, as in the tasks array.
        let (quick, checked) = Self.ends(Array((text + "]").utf8))
        #expect(quick == nil && checked == nil, "quick \(String(describing: quick)), checked \(String(describing: checked))")
    }

    @Test("nesting: the quick check goes as deep as the limit allows and no deeper, and leaves deeper values to the check")
    func nesting() {
        func nested(_ depth: Int) -> [UInt8] {
            Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        }
        // At depth 448, 64 more levels reach the limit of 512; 65 go past it.
        #expect(Self.ends(nested(64), depth: 448) == (quick: 128, checked: 128))
        #expect(Self.ends(nested(65), depth: 447).quick == nil)
        let past = Self.ends(nested(64), depth: 449)
        #expect(past.quick == nil && past.checked == nil)
        // More than the quick check's 64 levels, within the limit: the recursive check's.
        let deep = Self.ends(nested(100))
        #expect(deep.quick == nil && deep.checked == 200)
    }
}
