import Foundation
import Recurrence
import Testing

/// The names a task's zone is kept and shown by: IANA names where there is
/// one (what other programs reading a tasks file look up in tzdata), and
/// `UTC±hh:mm` for a person.
@Suite("time zone names")
struct TimeZoneNamesTests {
    @Test("a whole-hour offset is kept by its tzdata name, which reads back to the same offset")
    func wholeHours() throws {
        for hours in -12...14 where hours != 0 {
            let zone = try #require(TimeZone.fixed(secondsEast: hours * 3600))
            let name = zone.portableIdentifier
            #expect(name == "Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours)))
            // An IANA reader (Python's zoneinfo, java.time, ICU) finds it in tzdata.
            #expect(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name), "\(name)")
            #expect(TimeZone(identifier: name)?.secondsFromGMT() == hours * 3600)
            #expect(zone.displayName == String(format: "UTC%@%02d:00", hours < 0 ? "-" : "+", abs(hours)))
            #expect(try TimeZone.iana(zone.displayName).secondsFromGMT() == hours * 3600)
        }
    }

    @Test("UTC is called UTC, whatever Foundation calls it")
    func utc() throws {
        for name in ["UTC", "GMT", "Etc/UTC", "UTC+00:00"] {
            let zone = try TimeZone.iana(name)
            #expect(zone.displayName == "UTC", "\(name)")
            #expect(["UTC", "Etc/UTC"].contains(zone.portableIdentifier), "\(name): \(zone.portableIdentifier)")
        }
        #expect(TimeZone.fixed(secondsEast: 0)?.portableIdentifier == "UTC")
    }

    @Test("an offset with minutes has no IANA name: it keeps one Foundation reads back, and shows as UTC±hh:mm")
    func minutes() throws {
        for (offset, shown) in [(19_800, "UTC+05:30"), (-34_200, "UTC-09:30"), (45 * 60 + 5 * 3600, "UTC+05:45")] {
            let zone = try #require(TimeZone.fixed(secondsEast: offset))
            #expect(TimeZone(identifier: zone.portableIdentifier)?.secondsFromGMT() == offset)
            #expect(zone.displayName == shown)
        }
        #expect(TimeZone.fixed(secondsEast: 19 * 3600) == nil)
    }

    @Test("a zone with rules keeps its IANA name")
    func regions() throws {
        for name in ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu"] {
            let zone = try TimeZone.iana(name)
            #expect(zone.portableIdentifier == name)
            #expect(zone.displayName == name)
        }
    }

    @Test("an abbreviation Foundation takes for a zone becomes that zone's IANA name, with the same offsets")
    func abbreviations() throws {
        let summer = Date(timeIntervalSince1970: 1_751_328_000)  // 2025-07-01
        let winter = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
        let pacific = try TimeZone.iana("PST")
        #expect(pacific.identifier == "America/Los_Angeles")
        let foundations = try #require(TimeZone(identifier: "PST"))
        for date in [summer, winter] { #expect(pacific.secondsFromGMT(for: date) == foundations.secondsFromGMT(for: date)) }
        // Old names that tzdata still holds keep their names: EST is a fixed -05:00.
        for name in ["EST", "US/Eastern", "CET"] { #expect(try TimeZone.iana(name).identifier == name) }
        #expect(try TimeZone.iana("EST").secondsFromGMT(for: summer) == -18_000)
    }

    @Test("a bare offset is a fixed zone; a city, a slip or an abbreviation that is no zone gets a suggestion")
    func offsetsAndSuggestions() throws {
        #expect(try TimeZone.iana("+02:00").portableIdentifier == "Etc/GMT-2")
        #expect(try TimeZone.iana("-05:30").secondsFromGMT() == -19_800)
        for (text, meant) in [("Berlin", "Europe/Berlin"), ("new york", "America/New_York"), ("Europe/Berln", "Europe/Berlin")] {
            let error = #expect(throws: RecurrenceError.self) { try TimeZone.iana(text) }
            #expect(error?.description == "\"\(text)\" is not an IANA time zone; did you mean \(meant)?")
        }
        let summerTime = #expect(throws: RecurrenceError.self) { try TimeZone.iana("CEST") }
        #expect(summerTime?.description.hasPrefix("\"CEST\" is not an IANA time zone; did you mean Europe/") == true)
        let nowhere = #expect(throws: RecurrenceError.self) { try TimeZone.iana("Mars/Olympus") }
        #expect(nowhere?.description.hasSuffix("use an identifier such as Europe/Berlin, America/New_York or UTC") == true)
    }
}
