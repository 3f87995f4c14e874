import Foundation
import Recurrence
import TestSupport
import Testing

/// The tasks file's direct reader (straight from the bytes) against the
/// tree reader it stands in for: the same tasks, the same first problem.
@Suite struct DirectTaskReaderTests {
    /// What a reader makes of a file.
    enum Outcome: Equatable {
        case tasks([RecurringTask])
        case problem(String)
    }

    func outcome(_ data: Data, _ reading: TaskFile.Reading) -> Outcome {
        do {
            return .tasks(try TaskFile.decode(data, reading: reading))
        } catch {
            return .problem("\(error)")
        }
    }

    func expectSameReading(_ text: String, _ comment: Comment? = nil) {
        let data = Data(text.utf8)
        #expect(outcome(data, .direct) == outcome(data, .tree), comment ?? "\(text)")
    }

    @Test(
        "the bundled tasks files read the same both ways",
        arguments: [
            "cat-medicine/tasks.json", "cat-medicine/scenario.json", "cold-start/tasks.json", "simulate/tasks.json",
            "visnjan-errands/tasks.json",
        ])
    func bundledFiles(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.track(path)))
        let direct = outcome(data, .direct)
        #expect(direct == outcome(data, .tree))
        guard case .tasks(let tasks) = direct else {
            Issue.record("\(path): \(direct)")
            return
        }
        #expect(!tasks.isEmpty)
    }

    @Test("every field and form the format allows reads the same both ways")
    func everyForm() {
        let forms = [
            #""schedule": {"afterCompletion": {"min": "10w", "max": "14 weeks"}}"#,
            #""schedule": {"fixed": {"every": "1mo "}}"#,
            #""schedule": {"weekdays": {"days": ["mon", "Wednesday", "fr"], "at": "18:00"}}"#,
            #""schedule": {"weekdays": {"days": ["Mo", "TUE", "wednesday", "Th", "fri", "SATURDAY", "su"], "at": "7:00"}}"#,
            #""schedule": {"once": {"due": "2025-02-01T10:00:00.250+01:00"}}"#,
            #""schedule": {"fixed": {"every": "1d"}}, "lead": "90 minutes", "end": "2026-01-01T00:00:00Z""#,
            #""schedule": {"fixed": {"every": "1d"}}, "timeZone": "Europe/Berlin", "list": "Pets", "notes": "n", "assignee": "ana""#,
            #""schedule": {"fixed": {"every": "1d"}}, "completions": ["2025-03-01T00:00:00Z", "2025-02-01T00:00:00Z"]"#,
            #""schedule": {"fixed": {"every": "1d"}}, "locations": [{"name": "Shop", "lat": 45.1, "lon": -13.6e0, "radius": 150}, {"radius": 1E2, "lon": 0, "lat": -0.5}]"#,
            #""schedule": {"fixed": {"every": "1d"}}, "locations": [], "completions": []"#,
            #""schedule": {"fixed": {"every": "1d"}}, "title": "Crème brûlée ✓""#,
        ]
        for form in forms {
            expectSameReading(#"{"tasks": [{"id": "a", "title": "A", "start": "2025-01-06T09:00:00+01:00", \#(form)}]}"#)
        }
    }

    @Test("what the direct reader leaves to the tree reads the same both ways")
    func leftToTheTree() {
        let required = [
            #""id": "a""#, #""title": "A""#, #""start": "2025-01-06T09:00:00Z""#, #""schedule": {"fixed": {"every": "1d"}}"#,
        ]
        let base = required.joined(separator: ", ")
        let tails = [
            #", "list": null"#, #", "title": "B""#, #", "id": "b""#, #", "colour": "red""#, #", "timezone": "UTC""#,
            #", "lead": " 2h""#, #", "lead": "2 h""#, #", "lead": "2hours""#, #", "lead": "x""#, #", "lead": 2"#,
            #", "start": " 2025-01-06T09:00:00Z""#, #", "end": "2025-01-01T00:00:00Z""#, #", "notes": "a\nb""#,
            #", "timeZone": "Mars/Olympus""#, #", "completions": ["2025-01-07T00:00:00Z", 5]"#,
            #", "completions": "2025-01-07T00:00:00Z""#, #", "locations": [{"lat": 91, "lon": 0, "radius": 1}]"#,
            #", "locations": [{"lat": 1, "lon": 0, "radius": 0}]"#, #", "locations": [{"lat": 1, "lon": 0}]"#,
            #", "locations": [{"lat": 1, "lon": 0, "radius": 5, "lng": 2}]"#, #", "locations": {}"#,
            #", "locations": [{"lat": "1", "lon": 0, "radius": 5}]"#, #", "schedule": {"fixed": {"every": "0d"}}"#,
            #", "schedule": {"fixed": {"every": "1d"}, "once": {"due": "2025-01-07T00:00:00Z"}}"#,
            #", "schedule": {"fixed": {"every": "1d", "x": 1}}"#, #", "schedule": {"weekly": {}}"#,
            #", "schedule": {"afterCompletion": {"min": "3d", "max": "1d"}}"#,
            #", "schedule": {"weekdays": {"days": [], "at": "7:00"}}"#,
            #", "schedule": {"weekdays": {"days": ["mon", "xx"], "at": "7:00"}}"#,
            #", "schedule": {"weekdays": {"days": ["mon"], "at": "25:00"}}"#, #", "id": """#, #", "id": "a\u0062""#,
        ]
        for tail in tails { expectSameReading(#"{"tasks": [{\#(base)\#(tail)}]}"#) }
        for missing in required.indices {
            var fields = required
            fields.remove(at: missing)
            expectSameReading(#"{"tasks": [{\#(fields.joined(separator: ", "))}]}"#)
        }
        expectSameReading(#"{"tasks": [5, {\#(base)}]}"#)
        expectSameReading(#"{"tasks": [{\#(base)}, {\#(base)}]}"#, "a duplicate id")
    }

    @Test("bytes that only the direct reader sees, as it reads while the text is checked, get the tree's problem")
    func directReaderChecksItsBytes() {
        let head = #"{"tasks": [{"id": "a", "start": "2025-01-06T09:00:00Z", "schedule": {"fixed": {"every": "1d"}}, "title": ""#
        func file(title: [UInt8], latitude: String = "45.1") -> Data {
            let tail = #"", "locations": [{"lat": \#(latitude), "lon": 0, "radius": 5}]}]}"#
            return Data(Array(head.utf8) + title + Array(tail.utf8))
        }
        func isProblem(_ data: Data) -> Bool {
            if case .problem = outcome(data, .tree) { return true }
            return false
        }
        // Raw control characters and broken UTF-8 in a string.
        let badTitles: [[UInt8]] = [
            [0x45, 0x01, 0x45], [0x45, 0x09, 0x45], [0x45, 0x0A], [0x1F], [0x45, 0xC3], [0xFF, 0x45], [0x80],
            [0xED, 0xA0, 0x80], [0xC0, 0xAF], Array("Cr".utf8) + [0xC3] + Array("me".utf8),
        ]
        // Padding moves each bad byte through the word-at-a-time scan's eight places.
        for title in badTitles {
            for padding in 0..<9 {
                let data = file(title: Array(repeating: 0x61, count: padding) + title)
                #expect(isProblem(data))
                #expect(outcome(data, .direct) == outcome(data, .tree), "\(title), \(padding) bytes before")
            }
        }
        // Numbers out of JSON's form, or out of range.
        for latitude in ["05.1", "+45.1", ".5", "45.", "4e", "4e+", "-", "--4", "45.1.2", "1e999", "0x10", "4_5"] {
            let data = file(title: Array("A".utf8), latitude: latitude)
            #expect(isProblem(data), "\(latitude)")
            #expect(outcome(data, .direct) == outcome(data, .tree), "\(latitude)")
        }
        // And the forms that are JSON read as tasks both ways.
        for latitude in ["0", "-0.5", "4.5e1", "45E0", "1e-2", "-0"] {
            let data = file(title: Array("Crème brûlée".utf8), latitude: latitude)
            #expect(!isProblem(data), "\(latitude)")
            #expect(outcome(data, .direct) == outcome(data, .tree), "\(latitude)")
        }
    }

    @Test("randomly assembled tasks read the same both ways")
    func randomTasks() {
        var random = SeededRandom(seed: 17)
        let values: [String: [String]] = [
            "id": [#""t""#, #""""#, #"null"#, #"7"#, #""t\u0031""#],
            "title": [#""Errand""#, #""É\tx""#, #"null"#, #"[]"#],
            "timeZone": [#""Europe/Berlin""#, #""UTC""#, #""Asia/Kolkata""#, #""Nowhere""#, #"null"#],
            "start": [#""2025-01-06T09:00:00Z""#, #""2025-01-06 09:00:00+01""#, #""2025-13-01T00:00:00Z""#, #"0"#],
            "end": [#""2026-01-06T09:00:00Z""#, #""2024-01-01T00:00:00Z""#, #"null"#],
            "lead": [#""1h""#, #""2 d""#, #""3W""#, #""1mo ""#, #""-1h""#, #""1000000000s""#, #"null"#],
            "schedule": [
                #"{"fixed": {"every": "2w"}}"#, #"{"afterCompletion": {"min": "1d", "max": "3d"}}"#,
                #"{"afterCompletion": {"max": "3d", "min": "1d"}}"#, #"{"afterCompletion": {"min": "1d"}}"#,
                #"{"weekdays": {"days": ["mo", "SUN"], "at": "08:30"}}"#,
                #"{"weekdays": {"days": ["TUESDAY", "thu", "Sa", "wednesday"], "at": "8:05"}}"#,
                #"{"weekdays": {"days": ["mond"], "at": "08:30"}}"#, #"{"weekdays": {"days": [" fri"], "at": "08:30"}}"#,
                #"{"weekdays": {"days": ["friday ", "m"], "at": "08:30"}}"#,
                #"{"weekdays": {"days": ["sunday", 7], "at": "0:00"}}"#, #"{"once": {"due": "2025-02-01T00:00:00Z"}}"#,
                #"{}"#, #"{"fixed": {"every": "1d"}, "fixed": {"every": "2d"}}"#,
            ],
            "locations": [
                #"[{"name": "P", "lat": 52.5, "lon": 13.4, "radius": 150}]"#, #"[{"lat": 1e1, "lon": -1.5, "radius": 2}]"#,
                #"[{"lat": 1, "lon": 2, "radius": 3, "name": null}]"#, #"[]"#, #"null"#,
            ],
            "completions": [#"["2025-02-01T00:00:00Z", "2025-01-10T00:00:00Z"]"#, #"[]"#, #"[null]"#, #""2025""#],
            "list": [#""Pets""#, #"null"#], "notes": [#""n""#], "assignee": [#""ana""#, #"{}"#], "colour": [#""red""#],
        ]
        let keys = values.keys.sorted()
        for round in 0..<400 {
            var members: [String] = []
            for key in keys where random.next() % 100 < (["id", "title", "start", "schedule"].contains(key) ? 93 : 30) {
                let choices = values[key]!
                // The first choice is the usual, good one.
                let value = random.next() % 3 == 0 ? choices[Int(random.next() % UInt64(choices.count))] : choices[0]
                members.append(#""\#(key)": \#(value)"#)
                if random.next() % 40 == 0 { members.append(#""\#(key)": \#(choices[0])"#) }
            }
            members.shuffle(using: &random)
            let tasks = (0..<3).map { index in
                "{" + members.joined(separator: ", ").replacingOccurrences(of: #""t""#, with: "\"t\(index)\"") + "}"
            }
            expectSameReading(#"{"tasks": [\#(tasks.joined(separator: ",\n"))]}"#, "round \(round)")
        }
    }
}
