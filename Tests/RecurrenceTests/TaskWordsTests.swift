import Recurrence
import Testing

/// The byte-wise fast paths of the tasks file's words read what the
/// character-wise reading reads.
@Suite("durations and weekdays as the tasks file spells them")
struct TaskWordsTests {
    @Test(
        "durations: ASCII and not, any case and spacing",
        arguments: [
            "10w", " 2 days ", "36H", "12h\r\n", "\t1 Mo", "3 years", "5 mins", "10w\u{00A0}", "１0w", "x", "", " ", "10", "w",
        ])
    func duration(_ text: String) {
        let parsed = try? CalendarDuration(parsing: text)
        // The reference: characters, Unicode whitespace and lowercasing.
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        let digits = String(trimmed).prefix { $0.isASCII && $0.isNumber }
        let unit = String(String(trimmed).dropFirst(digits.count).drop { $0.isWhitespace }).lowercased()
        let units: [String: CalendarDuration.Unit] = [
            "w": .weeks, "days": .days, "h": .hours, "mo": .months, "years": .years, "mins": .minutes,
        ]
        let expected = Int(digits).flatMap { value in units[unit].map { CalendarDuration(value, $0) } }
        #expect(parsed == expected, "'\(text)'")
    }

    @Test(
        "weekdays: full, three and two letters, any case",
        arguments: ["Monday", " tue ", "WE", "thursday\n", "Fr", "sAt", "su", "xx", "", "Mondays"])
    func weekday(_ text: String) {
        let parsed = try? Weekday(parsing: text)
        let key = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()).lowercased()
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let index = key.isEmpty ? nil : names.firstIndex { $0 == key || $0.prefix(3) == key || $0.prefix(2) == key }
        #expect(parsed == index.map { Weekday(rawValue: $0 + 1)! }, "'\(text)'")
    }
}
