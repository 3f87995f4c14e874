import Evaluation
import GeoCore
import Testing

@Suite struct TruthEventsFileTests {
    @Test func jsonLinesGiveOneEventEach() {
        let file = TruthEventsFile(
            text: """
                {"kind":"enter","time":"2025-03-17T16:00:00Z","region":"Pharmacy","device":"phone"}
                {"kind":"exit","time":"2025-03-17T16:10:00.5Z","region":"Pharmacy"}

                {"kind":"dwell","time":"2025-03-17T16:10:00Z","region":"Pharmacy"}
                {"kind":"exit","time":"yesterday","region":"Pharmacy"}
                {"kind":"exit","time":"2300-01-01T00:00:00Z","region":"Pharmacy"}
                """)
        #expect(file.events.map(\.kind) == [.enter, .exit])
        #expect(file.events.map(\.device) == ["phone", nil])
        #expect(file.events[1].time == RFC3339.parse("2025-03-17T16:10:00.5Z"))
        #expect(
            file.problems == [
                "line 4: \"kind\" must be \"enter\" or \"exit\"",
                "line 5: \"time\" must be an RFC 3339 time like 2025-03-17T16:00:00Z",
                "line 6: \"time\" 2300-01-01T00:00:00Z is outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z, "
                    + "the times a feed can hold",
            ])
    }

    @Test func visitsGiveAnEntryAndAnExitOrAnOpenVisit() {
        let file = TruthEventsFile(
            text: """
                device,region,enter,exit
                dev1,Bakery,2025-03-17T08:00:00Z,2025-03-17T08:05:00Z
                ,Bakery,2025-03-17T09:00:00Z,
                dev1,Bakery,2025-03-17T10:00:00Z,2025-03-17T09:00:00Z
                dev1,Bakery
                """)
        #expect(file.events.map(\.kind) == [.enter, .exit, .enter])
        #expect(file.events.map(\.device) == ["dev1", "dev1", nil])
        #expect(
            file.problems == ["line 4: the exit is before the entry", "line 5: a visit is device,region,enter,exit (2 fields)"])
    }

    @Test("a visits CSV is read as CSV feeds are: ; between the fields, a quoted region name with a comma, # comments")
    func visitsReadLikeAFeed() {
        let file = TruthEventsFile(
            text:
                "# labelled by hand\r\ndevice;region;enter;exit\r\ndev1;\"Bakery, Süd\";2025-03-17T08:00:00Z;\r\n\r\ndev1;Bakery\r\n"
        )
        #expect(
            file.events == [
                ScoredEvent(kind: .enter, time: RFC3339.parse("2025-03-17T08:00:00Z")!, region: "Bakery, Süd", device: "dev1")
            ])
        #expect(file.problems == ["line 5: a visit is device,region,enter,exit (2 fields)"])
    }

    @Test("a file's bytes: a UTF-16 visits CSV, and JSON lines behind a UTF-8 byte-order mark")
    func encodings() {
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "device,region,enter,exit\r\ndev1,Bakery,2025-03-17T08:00:00Z,\r\n".utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let visits = TruthEventsFile(bytes: utf16)
        #expect(visits.problems.isEmpty, "\(visits.problems)")
        #expect(visits.events.map(\.region) == ["Bakery"])
        let marked = TruthEventsFile(
            bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"kind":"enter","time":"2025-03-17T16:00:00Z","region":"Pharmacy"}"#.utf8))
        #expect(marked.problems.isEmpty, "\(marked.problems)")
        #expect(marked.events.map(\.region) == ["Pharmacy"])
    }

    @Test func overlappingVisitsAndRepeatedExitsAreNamedAndKept() {
        let file = TruthEventsFile(
            text: """
                device,region,enter,exit
                dev1,Bakery,2025-03-17T08:00:00Z,2025-03-17T08:30:00Z
                dev1,Bakery,2025-03-17T08:10:00Z,2025-03-17T08:40:00Z
                dev2,Bakery,2025-03-17T08:10:00Z,2025-03-17T08:40:00Z
                dev1,Bakery,2025-03-17T09:00:00Z,2025-03-17T09:05:00Z
                dev1,Tailor,2025-03-17T08:10:00Z,
                dev1,Tailor,2025-03-17T08:20:00Z,2025-03-17T08:25:00Z
                """)
        #expect(file.events.count == 11)
        #expect(
            file.conflicts == [
                "line 3: device dev1 enters \"Bakery\" again, inside since line 2",
                "line 7: device dev1 enters \"Tailor\" again, inside since line 6",
            ])
        let lines = TruthEventsFile(
            text: """
                {"kind":"exit","time":"2025-03-17T08:00:00Z","region":"Pharmacy"}
                {"kind":"enter","time":"2025-03-17T08:10:00Z","region":"Pharmacy"}
                {"kind":"exit","time":"2025-03-17T08:20:00Z","region":"Pharmacy"}
                {"kind":"exit","time":"2025-03-17T08:30:00Z","region":"Pharmacy"}
                """)
        // A device may begin inside: its first exit is no conflict.
        #expect(lines.conflicts == ["line 4: the device leaves \"Pharmacy\" again, outside since line 3"])
        #expect(lines.events.count == 4)
    }
}
