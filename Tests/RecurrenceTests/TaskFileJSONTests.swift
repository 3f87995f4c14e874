import Foundation
import GeoCore
import Recurrence
import Testing

/// The tasks file's JSON reader: strict RFC 8259, one task at a time
/// (issue 16: a million tasks took 13 KB each as a Foundation object tree).
@Suite struct TaskFileJSONTests {
    let task = #"{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}}"#

    func decodes(_ text: String) throws -> [RecurringTask] { try TaskFile.decode(Data(text.utf8)) }

    func problem(_ data: Data) -> String {
        do {
            _ = try TaskFile.decode(data)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "broken JSON is named with its line and column",
        arguments: [
            ("{\"tasks\": [}", "line 1, column 12: unexpected character '}'; expected a value"),
            ("{\"tasks\": [],}", "line 1, column 14: expected a member name in double quotes"),
            ("{\"tasks\": []} x", "line 1, column 15: text after the end of the JSON value"),
            ("{\"tasks\": [\n  // no comments\n]}", "line 2, column 3: unexpected character '/'"),
            ("{\"tasks\": [NaN]}", "line 1, column 12: unexpected character 'N'"),
            ("{\"tasks\": [01]}", "line 1, column 13: expected ']'"),
            ("{\"tasks\": [1.]}", "line 1, column 14: expected a digit"),
            ("{\"tasks\": [1e999]}", "the number 1e999 is out of range"),
            ("{\"tasks\": [\"a\tb\"]}", "a control character in a string must be escaped"),
            ("{\"tasks\": [\"\\ud800\"]}", "a \\u escape of a high surrogate must be followed by its low one"),
            ("{\"tasks\": [\"\\udc00\"]}", "a low surrogate without its high one"),
            ("{\"tasks\": [\"\\x\"]}", "unknown escape '\\x'"),
            ("{\"tasks\": [tru]}", "expected true"),
            ("{\"tasks\": [\"open", "unterminated string"),
            ("", "unexpected end of the text; expected a value"),
        ])
    func brokenJSON(text: String, expected: String) {
        let message = problem(Data(text.utf8))
        #expect(message.hasPrefix("not valid JSON (line"), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    @Test("an escape, a control character or a byte that is not UTF-8 is found wherever it sits in a long string")
    func stringsAreScannedToTheByte() throws {
        for offset in 0..<20 {
            let before = String(repeating: "x", count: offset), after = String(repeating: "y", count: 20 - offset)
            func file(_ id: [UInt8]) -> Data {
                let text = task.replacingOccurrences(of: #""id":"a""#, with: #""id":"@""#)
                let parts = text.split(separator: "@", omittingEmptySubsequences: false)
                return Data(#"{"tasks": ["#.utf8 + Array(parts[0].utf8) + id + Array(parts[1].utf8) + "]}".utf8)
            }
            let plain = Array((before + after).utf8)
            #expect(try TaskFile.decode(file(plain)).map(\.id) == [before + after])
            let escaped = Array((before + #"\"\\"# + after).utf8)
            #expect(try TaskFile.decode(file(escaped)).map(\.id) == [before + "\"\\" + after], "offset \(offset)")
            let accented = Array((before + "é" + after).utf8)
            #expect(try TaskFile.decode(file(accented)).map(\.id) == [before + "é" + after], "offset \(offset)")
            let tab = Array(before.utf8) + [0x09] + Array(after.utf8)
            #expect(problem(file(tab)).contains("a control character in a string must be escaped"), "offset \(offset)")
            for byte: UInt8 in [0x80, 0x9F, 0xFF] {
                let notUTF8 = Array(before.utf8) + [byte] + Array(after.utf8)
                #expect(problem(file(notUTF8)).contains("a string is not valid UTF-8"), "\(byte) at offset \(offset)")
            }
        }
    }

    @Test func invalidUTF8IsNotJSON() {
        let bytes = Array(#"{"tasks": [""#.utf8) + [0xC3, 0x28] + Array(#""]}"#.utf8)
        #expect(problem(Data(bytes)).contains("a string is not valid UTF-8"))
    }

    @Test("nesting deeper than 512 levels is refused, not a stack overflow")
    func deepNesting() {
        let depth = 100_000
        let text = #"{"tasks": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(problem(Data(text.utf8)).contains("nested deeper than 512 levels"))
        let fine = #"{"tasks": [], "x": "# + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}"
        #expect(problem(Data(fine.utf8)) == "no error")
    }

    @Test("a broken document is reported before its first bad task, as JSONSerialization did")
    func jsonBeforeTasks() {
        let text = #"{"tasks": [{"id": ""}], "more": [}"#
        #expect(problem(Data(text.utf8)).hasPrefix("not valid JSON"))
    }

    @Test func escapesDuplicatesAndNullsReadAsJSONSerializationReadThem() throws {
        let text = #"""
            {"ignored": {"nested": [1, -2.5e3, true, false, null, "x"]},
             "tasks": [{"id": "a\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t", "title": "first", "title": "A",
                        "list": null, "start": "2025-01-01T00:00:00Z", "schedule": {"fixed": {"every": "1d"}}}]}
            """#
        let tasks = try decodes(text)
        #expect(tasks.map(\.id) == ["a\u{e9}\u{1F600}\"\\/\u{8}\u{c}\n\r\t"])
        #expect(tasks[0].title == "A", "the last of a repeated key counts")
        #expect(tasks[0].list == nil)
    }

    @Test("the last \"tasks\" member counts; anything else at the top is not a tasks file")
    func topLevel() throws {
        #expect(try decodes(#"{"tasks": [\#(task)], "tasks": []}"#).isEmpty)
        #expect(try decodes(#"{"tasks": 5, "tasks": [\#(task)]}"#).count == 1)
        for text in [#"[\#(task)]"#, #"{"tasks": {}}"#, #"{"task": []}"#, #"{"tasks": [], "tasks": 5}"#] {
            #expect(problem(Data(text.utf8)).contains(#"expected an object with a "tasks" array"#), "\(text)")
        }
    }

    @Test("UTF-16 and UTF-32 files and a UTF-8 byte-order mark are read, as JSONSerialization read them")
    func encodings() throws {
        let text = #"{"tasks": [\#(task)]}"#
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian, .utf32] {
            let data = try #require(text.data(using: encoding))
            #expect(try TaskFile.decode(data).map(\.id) == ["a"], "\(encoding)")
        }
        #expect(try TaskFile.decode(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))).map(\.id) == ["a"])
    }

    @Test("a large file reads every task, in order")
    func manyTasks() throws {
        let count = 20_000
        let body = (0..<count).map { index in task.replacingOccurrences(of: #""id":"a""#, with: #""id":"t\#(index)""#) }
        let tasks = try decodes(#"{"tasks": [\#(body.joined(separator: ",\n"))]}"#)
        #expect(tasks.count == count)
        #expect(tasks.last?.id == "t\(count - 1)")
    }

    /// A tasks file of `count` tasks `t0` … whose ids and `schedule`s may be replaced.
    func file(count: Int, ids: [Int: String] = [:], broken: [Int: String] = [:]) -> Data {
        let body = (0..<count).map { index in
            let id = ids[index] ?? "t\(index)"
            let every = broken[index] ?? "1d"
            return task.replacingOccurrences(of: #""id":"a""#, with: #""id":"\#(id)""#)
                .replacingOccurrences(of: #""every":"1d""#, with: #""every":"\#(every)""#)
        }
        return Data(#"{"tasks": [\#(body.joined(separator: ","))]}"#.utf8)
    }

    @Test(
        "any number of threads reads the same tasks and reports the same first problem",
        arguments: [
            ("none", [:], [:], "t1499 "),
            ("a bad task in a later run", [:], [1_300: "soon"], #"(tasks[1300]), field "schedule.fixed.every""#),
            ("bad tasks in two runs: the earlier counts", [:], [900: "x", 300: "y"], "(tasks[300])"),
            ("a duplicate before a later run's bad task", [1_100: "t5"], [1_200: "z"], #"(tasks[1100]), field "id""#),
            ("a bad task before a later duplicate", [1_100: "t5"], [700: "z"], "(tasks[700])"),
            ("a duplicate and a bad task in one run, duplicate first", [600: "t1"], [601: "z"], "(tasks[600])"),
            ("a duplicate across runs", [1_499: "t0"], [:], #"task "t0" (tasks[1499]), field "id": duplicate id"#),
        ] as [(String, [Int: String], [Int: String], String)])
    func threads(case name: String, ids: [Int: String], broken: [Int: String], expected: String) throws {
        let data = file(count: 1_500, ids: ids, broken: broken)
        func read(jobs: Int) -> String {
            do {
                return try TaskFile.decode(data, jobs: jobs).map { "\($0.id) \($0.schedule)" }.joined(separator: "\n")
            } catch {
                return "problem: \(error)"
            }
        }
        let one = read(jobs: 1)
        #expect(one.hasPrefix("problem") == !(ids.isEmpty && broken.isEmpty), "\(name)")
        #expect(one.contains(expected), "\(name): \(one.suffix(200))")
        for jobs in [2, 3, 8] { #expect(read(jobs: jobs) == one, "\(name), \(jobs) threads") }
    }

    @Test(
        "a file of over 1 MiB, checked in pieces on several threads, reads and fails as on one thread",
        arguments: [("Errand ", 50, false), ("}, {", 50, false), ("Errand ", 2, true)])
    func pieces(titled title: String, placesEvery interval: Int, indented: Bool) throws {
        // Places (an array of objects) in some tasks, titles that may look
        // like the seam between two tasks, and indentation that sets tasks
        // apart from their places: guessed piece starts fall between tasks,
        // inside nested values and inside strings.
        let place = #"{"name": "Shop", "lat": 45.1, "lon": -13.6, "radius": 150}"#
        let body = (0..<10_000).map { index in
            let places = index % interval == 0 ? #", "locations": [\#(place), \#(place)]"# : ""
            return #"{"id": "t\#(index)", "title": "\#(title)\#(index)", "start": "2025-01-01T00:00:00Z", "#
                + #""schedule": {"fixed": {"every": "1d"}}\#(places)}"#
        }
        var text = Array(#"{"tasks": [\#(body.joined(separator: ",\n"))]}"#.utf8)
        if indented {
            let object = try JSONSerialization.jsonObject(with: Data(text))
            text = Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
        }
        #expect(text.count > 1 << 20)
        func read(_ bytes: [UInt8], jobs: Int) -> String {
            do {
                let tasks = try TaskFile.decode(Data(bytes), jobs: jobs)
                return "\(tasks.count) tasks, \(tasks.map(\.id).joined(separator: " ").hashValue) \(tasks.last?.title ?? "")"
            } catch {
                return "problem: \(error)"
            }
        }
        let whole = read(text, jobs: 1)
        #expect(whole.hasPrefix("10000 tasks") && whole.hasSuffix(title + "9999"), "\(whole)")
        for jobs in [2, 3, 7] { #expect(read(text, jobs: jobs) == whole, "\(jobs) threads") }
        // A comma near where two or seven pieces begin made another
        // character: the same first problem, whichever piece finds it.
        var random = SplitMix64(seed: 11)
        let breaks: [(share: Double, byte: UInt8)] = [
            (1 / 2, UInt8(ascii: "x")), (1 / 2, UInt8(ascii: "\"")), (1 / 7, UInt8(ascii: "]")),
            (3 / 7, UInt8(ascii: "}")), (6 / 7, UInt8(ascii: "\"")),
        ]
        for (share, byte) in breaks {
            var broken = text
            let near: Int = Int(Double(text.count) * share) + Int(random.next() % 2_000) - 1_000
            let comma = try #require(broken[near...].firstIndex(of: UInt8(ascii: ",")))
            broken[comma] = byte
            let one = read(broken, jobs: 1)
            #expect(one.hasPrefix("problem: not valid JSON (line "), "\(one)")
            for jobs in [2, 7] {
                #expect(read(broken, jobs: jobs) == one, "\(Unicode.Scalar(byte)) near \(share), \(jobs) threads")
            }
        }
    }
}
