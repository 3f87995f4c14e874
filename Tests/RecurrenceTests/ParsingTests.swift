import Foundation
import Recurrence
import Testing

@Suite("Parsing durations, zones, weekdays and task files")
struct ParsingTests {
    @Test(
        "durations in every unit",
        arguments: [
            ("45s", CalendarDuration(45, .seconds)), ("30m", .init(30, .minutes)), ("6h", .init(6, .hours)),
            ("3d", .init(3, .days)), ("2w", .init(2, .weeks)), ("1mo", .init(1, .months)), ("1y", .init(1, .years)),
            ("10 weeks", .init(10, .weeks)), (" 90 minutes ", .init(90, .minutes)),
        ])
    func durations(text: String, expected: CalendarDuration) throws {
        #expect(try CalendarDuration(parsing: text) == expected)
        #expect(try CalendarDuration(parsing: expected.description) == expected)
    }

    @Test(
        "a bad duration is named in the message",
        arguments: ["banana", "", "10", "w", "-3d", "3 fortnights", "3d\u{0}", "3 \u{0}d", "2 minutesx", "1 monthss"])
    func badDuration(text: String) {
        #expect(throws: RecurrenceError.invalidDuration(text)) { try CalendarDuration(parsing: text) }
        #expect(RecurrenceError.invalidDuration(text).description.contains("\"\(text)\""))
    }

    @Test("time zones by IANA id; a bad one is named")
    func zones() throws {
        #expect(try TimeZone.iana("Europe/Berlin").identifier == "Europe/Berlin")
        #expect(throws: RecurrenceError.invalidTimeZone("Mars/Olympus_Mons")) { try TimeZone.iana("Mars/Olympus_Mons") }
        #expect(RecurrenceError.invalidTimeZone("banana").description.hasPrefix("\"banana\" is not an IANA time zone"))
        // A typo or the wrong case gets the zone it may have meant; nothing near gets the examples.
        #expect(RecurrenceError.invalidTimeZone("Europe/Berln").description.hasSuffix("; did you mean Europe/Berlin?"))
        #expect(RecurrenceError.invalidTimeZone("america/new_york").description.hasSuffix("; did you mean America/New_York?"))
        #expect(
            RecurrenceError.invalidTimeZone("banana").description.hasSuffix(
                ": use an identifier such as Europe/Berlin, America/New_York or UTC"))
    }

    @Test("weekdays and times of day")
    func weekdays() throws {
        #expect(try Weekday(parsing: "mon") == .monday)
        #expect(try Weekday(parsing: "Friday") == .friday)
        #expect(throws: RecurrenceError.invalidWeekday("funday")) { try Weekday(parsing: "funday") }
        #expect(try TimeOfDay(parsing: "7:05") == TimeOfDay(hour: 7, minute: 5))
        #expect(throws: RecurrenceError.invalidTimeOfDay("25:00")) { try TimeOfDay(parsing: "25:00") }
    }

    @Test(
        "every spelling of every weekday, in any case and with blanks around",
        arguments: Weekday.allCases)
    func weekdaySpellings(day: Weekday) throws {
        let name = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.rawValue - 1]
        for spelling in [name, String(name.prefix(3)), String(name.prefix(2))] {
            #expect(try Weekday(parsing: spelling) == day)
            #expect(try Weekday(parsing: " \(spelling.uppercased())\t") == day)
        }
        #expect(try Weekday(parsing: day.shortName) == day)
        for wrong in [String(name.prefix(1)), name + "s", String(name.dropFirst())] {
            #expect(throws: RecurrenceError.invalidWeekday(wrong)) { try Weekday(parsing: wrong) }
        }
    }

    @Test(
        "times of day: H:MM or HH:MM, blanks around allowed, nothing else",
        arguments: [
            ("18:00", TimeOfDay(hour: 18, minute: 0)), ("0:00", TimeOfDay(hour: 0, minute: 0)),
            ("23:59", TimeOfDay(hour: 23, minute: 59)), (" 07:30\n", TimeOfDay(hour: 7, minute: 30)),
            ("\u{00A0}9:15\u{2003}", TimeOfDay(hour: 9, minute: 15)),
            ("24:00", nil), ("12:60", nil), ("18", nil), ("18:0", nil), ("18:000", nil), ("18:00:00", nil),
            ("123:00", nil), (":30", nil), ("+7:30", nil), ("-0:00", nil), ("1 8:00", nil), ("１８:００", nil), ("", nil),
        ] as [(String, TimeOfDay?)])
    func timesOfDay(text: String, expected: TimeOfDay?) throws {
        if let expected {
            #expect(try TimeOfDay(parsing: text) == expected)
        } else {
            #expect(throws: RecurrenceError.invalidTimeOfDay(text)) { try TimeOfDay(parsing: text) }
        }
    }

    @Test("the DESIGN.md example task file")
    func designExample() throws {
        let json = """
            {"tasks": [{
              "id": "cat-medicine", "title": "Buy cat medicine", "list": "Pets",
              "timeZone": "Europe/Berlin", "start": "2025-01-06T09:00:00+01:00",
              "schedule": {"afterCompletion": {"min": "10w", "max": "14w"}},
              "lead": "24h",
              "locations": [{"name": "Pharmacy", "lat": 52.5163, "lon": 13.3777, "radius": 150}],
              "completions": ["2025-03-20T17:45:00+01:00"]
            }, {"id": "gym", "title": "Gym", "start": "2025-01-06T00:00:00Z",
                "schedule": {"weekdays": {"days": ["mon","wed","fri"], "at": "18:00"}}},
               {"id": "bins", "title": "Bins", "start": "2025-01-06T00:00:00Z", "schedule": {"fixed": {"every": "2w"}}},
               {"id": "tax", "title": "Tax", "start": "2025-01-06T00:00:00Z", "schedule": {"once": {"due": "2025-07-31T23:59:00+02:00"}}}
            ]}
            """
        let tasks = try TaskFile.decode(Data(json.utf8))
        #expect(tasks.map(\.id) == ["cat-medicine", "gym", "bins", "tax"])
        let cat = tasks[0]
        #expect(cat.schedule == .afterCompletion(min: .init(10, .weeks), max: .init(14, .weeks)))
        #expect(cat.locations == [TaskLocation(name: "Pharmacy", latitude: 52.5163, longitude: 13.3777, radius: 150)])
        #expect(cat.completions == [at("2025-03-20T16:45:00Z")])
        #expect(cat.timeZone.identifier == "Europe/Berlin")
        #expect(tasks[1].schedule == .weekdays([.monday, .wednesday, .friday], at: TimeOfDay(hour: 18, minute: 0)))
        #expect(tasks[1].timeZone.secondsFromGMT(for: at("2025-07-01T00:00:00Z")) == 0)
    }

    @Test(
        "errors name the task and the field",
        arguments: [
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"banana"}}}]}"#,
                #"task "a" (tasks[0]), field "schedule.fixed.every": "banana" is not a duration"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"yesterday","schedule":{"fixed":{"every":"1d"}}}]}"#,
                #"task "a" (tasks[0]), field "start": "yesterday" is not a date-time"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","timeZone":"Mars/Base","schedule":{"fixed":{"every":"1d"}}}]}"#,
                #"field "timeZone": "Mars/Base" is not an IANA time zone"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}},"locations":[{"lat":95,"lon":0,"radius":10}]}]}"#,
                #"field "locations[0].lat": 95.0 is outside -90…90"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"yearly":{}}}]}"#,
                #"unknown schedule "yearly""#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"afterCompletion":{"min":"3w","max":"1w"}}}]}"#,
                #"afterCompletion min 3w is longer than max 1w"#
            ),
            (#"{"tasks":[{"title":"A"}]}"#, #"tasks[0], field "id": is required"#),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}},{"id":"a","title":"B","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}}]}"#,
                #"task "a" (tasks[1]), field "id": duplicate id"#
            ),
            (
                // The same id as Swift compares text: "é" as one scalar, then as two.
                #"{"tasks":[{"id":"\u00e9cole","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}},{"id":"e\u0301cole","title":"B","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}}]}"#,
                "(tasks[1]), field \"id\": duplicate id"
            ),
            (#"{"tasks": [}"#, "not valid JSON"),
            (
                #"{"tasks":[{"id":"a","tittle":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}}]}"#,
                #"task "a" (tasks[0]), field "tittle": unknown field; did you mean "title"?"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}},"locations":[{"name":"P","lat":1,"lng":2,"radius":10}]}]}"#,
                #"field "locations[0].lng": unknown field; did you mean "lon"?"#
            ),
            (
                #"{"tasks":[{"id":"a","title":"A","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}},"colour":"red"}]}"#,
                #"field "colour": unknown field; the fields here are id, title, list, notes, assignee, timeZone, start, end, lead, schedule, locations, completions"#
            ),
        ])
    func located(json: String, expected: String) {
        do {
            _ = try TaskFile.decode(Data(json.utf8))
            Issue.record("expected an error containing \(expected)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}

@Suite("RFC 3339 text of dates")
struct RFC3339TextTests {
    @Test("dates beyond the nanosecond range are formatted, not trapped on")
    func farDates() {
        #expect(RFC3339Text.format(at("2025-03-20T16:45:00Z")) == "2025-03-20T16:45:00Z")
        #expect(RFC3339Text.format(Date(timeIntervalSince1970: 1e11)) == "5138-11-16T09:46:40Z")
        #expect(RFC3339Text.format(Date(timeIntervalSince1970: -1e11)).hasPrefix("-"))
    }

    @Test(
        "a date in any year from 0000 to 9999 is read, and written back the same, in one calendar",
        arguments: [
            ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
            // Before the Gregorian reform, proleptic Gregorian as RFC 3339 has it (Foundation's formatter turns Julian).
            ("1582-10-04T12:00:00Z", "1582-10-04T12:00:00Z"), ("1677-09-21T00:12:43Z", "1677-09-21T00:12:43Z"),
            ("2262-04-11T23:47:17Z", "2262-04-11T23:47:17Z"), ("2300-01-01T00:00:00+02:00", "2299-12-31T22:00:00Z"),
            ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"), ("9999-12-31T23:59:59-01:00", "10000-01-01T00:59:59Z"),
        ])
    func wideYears(text: String, written: String) throws {
        let date = try RFC3339Text.date(text)
        #expect(RFC3339Text.format(date) == written, "\(text)")
        if written.count == 20 { #expect(try RFC3339Text.date(written) == date, "\(written)") }
    }

    @Test("days counted in the wide years land where the calendar says")
    func wideDays() throws {
        #expect(
            RFC3339Text.format(try RFC3339Text.date("0001-01-01T00:00:00Z").addingTimeInterval(7 * 86_400))
                == "0001-01-08T00:00:00Z")
        #expect(
            try RFC3339Text.date("2400-03-01T00:00:00Z").timeIntervalSince(RFC3339Text.date("2400-02-28T00:00:00Z")) == 2 * 86_400
        )
        #expect(throws: RecurrenceError.invalidDate("2300-02-29T00:00:00Z")) { try RFC3339Text.date("2300-02-29T00:00:00Z") }
        #expect(try RFC3339Text.date("9999-12-31T23:59:59.5Z").timeIntervalSince(RFC3339Text.date("9999-12-31T23:59:59Z")) == 0.5)
        // A billion years on, where durations end, as `task list`'s table writes it.
        #expect(RFC3339Text.format(Date(timeIntervalSince1970: 31_556_952e9)) == "1000001970-01-01T00:00:00Z")
    }
}
