import Foundation
import GeoCore
import Recurrence
import Testing

/// Times as people type them, read in a time zone.
@Suite("local time text")
struct LocalTimeTextTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2025-06-01T10:00:00Z, a Sunday: 12:00 in Berlin (CEST).
    static let now = Date(timeIntervalSince1970: 1_748_772_000)

    static func utc(_ text: String) -> Date { Date(timeIntervalSince1970: RFC3339.parse(text)!.secondsSince1970) }

    @Test(
        "local forms are read in the zone; offsets and now as they are",
        arguments: [
            ("2025-06-01T12:00", "2025-06-01T10:00:00Z"), ("2025-06-01 12:00:30", "2025-06-01T10:00:30Z"),
            ("2025-06-01", "2025-05-31T22:00:00Z"), ("2025-01-15T09:00", "2025-01-15T08:00:00Z"),
            ("2025-06-01T12:00:00+02:00", "2025-06-01T10:00:00Z"), ("2025-06-01T12:00:00Z", "2025-06-01T12:00:00Z"),
            ("now", "2025-06-01T10:00:00Z"), ("today", "2025-05-31T22:00:00Z"), ("yesterday", "2025-05-30T22:00:00Z"),
            ("tomorrow 09:00", "2025-06-02T07:00:00Z"), ("Tomorrow", "2025-06-01T22:00:00Z"), ("18:30", "2025-06-01T16:30:00Z"),
            // A time of day with an offset: today at that offset, whatever the zone.
            ("23:59+02:00", "2025-06-01T21:59:00Z"), ("08:00Z", "2025-06-01T08:00:00Z"),
            ("01:00-05:00", "2025-06-01T06:00:00Z"),
            // A date and time with an offset but without seconds, as people write them.
            ("2025-03-01T09:00Z", "2025-03-01T09:00:00Z"), ("2025-06-01T12:00+02:00", "2025-06-01T10:00:00Z"),
            ("2025-06-01 12:00-03:30", "2025-06-01T15:30:00Z"), ("2025-06-01t08:00:30z", "2025-06-01T08:00:30Z"),
            // Skipped by the spring change: forward by the gap; repeated in autumn: the first.
            ("2024-03-31T02:30", "2024-03-31T01:30:00Z"), ("2024-10-27T02:30", "2024-10-27T00:30:00Z"),
        ])
    func reads(text: String, expected: String) throws {
        #expect(try LocalTimeText.date(text, in: Self.berlin, now: Self.now) == Self.utc(expected), "\(text)")
    }

    @Test(
        "the offset a time states, for a task without a zone",
        arguments: [
            ("2025-06-01T12:00:00+02:00", 7_200), ("23:59+02:00", 7_200), ("08:00Z", 0), ("2025-06-01T12:00:00-03:30", -12_600),
            ("2025-06-01T12:00+05:30", 19_800), ("2025-03-01T09:00Z", 0),
            ("2025-06-01T12:00", nil), ("tomorrow 09:00", nil), ("now", nil), ("09:00", nil),
        ] as [(String, Int?)])
    func statedOffset(text: String, offset: Int?) {
        #expect(LocalTimeText.statedOffset(text) == offset, "\(text)")
    }

    @Test("a time with an offset is read in any year, as its local form is")
    func wideYears() throws {
        let utc = TimeZone(identifier: "UTC")!
        for (stated, local) in [
            ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59"), ("2300-06-01T12:00:00+02:00", "2300-06-01T10:00"),
            ("0001-01-01T00:00:00Z", "0001-01-01"),
        ] {
            #expect(
                try LocalTimeText.date(stated, in: Self.berlin, now: Self.now)
                    == LocalTimeText.date(local, in: utc, now: Self.now),
                "\(stated)")
        }
        #expect(LocalTimeText.statedOffset("2300-06-01T12:00:00+02:00") == 7_200)
    }

    @Test(
        "what is not a time is refused, naming it",
        arguments: [
            "soon", "2025-13-01", "2025-02-30", "25:00", "2025-06-01T12", "", "23:59+25:00", "+02:00", "10:00+23:00",
            "2025-02-30T00:00:00Z", "10000-01-01T00:00:00Z",
            "2025-02-30T09:00Z", "2025-06-01T24:00Z", "2025-06-01T12:00+24:00", "2025-06-01T12Z",
        ])
    func refuses(text: String) {
        #expect(throws: RecurrenceError.invalidDate(text)) { try LocalTimeText.date(text, in: Self.berlin, now: Self.now) }
    }
}
