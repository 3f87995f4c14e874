import FeedParsing
import GeoCore
import TestSupport
import Testing

@Suite("CSV decoder")
struct CSVDecoderTests {
    @Test("loose headers, any of , ; tab |, RFC 3339 or epoch times", arguments: [",", ";", "\t", "|"])
    func delimiters(delimiter: String) throws {
        let rows = [
            ["Timestamp", "Latitude", "Lng", "Altitude", "Device_ID", "Accuracy"],
            ["2025-03-01T10:00:00Z", "52.52", "13.4", "34", "\"phone \"\"A\"\"\"", "4.5"],
            ["1740823201", "52.521", "13.401", "", "watch", ""],
            ["1740823202500", "52.522", "13.402", "", "", ""],
        ]
        let text = rows.map { $0.joined(separator: delimiter) }.joined(separator: "\r\n")
        let batch = decode(text, format: .csv)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(
            batch.fixes.map { $0.time.map(RFC3339.format) } == [
                "2025-03-01T10:00:00Z", "2025-03-01T10:00:01Z", "2025-03-01T10:00:02.500Z",
            ])
        #expect(batch.fixes.map(\.device) == ["phone \"A\"", "watch", nil])
        #expect(batch.fixes[0].elevation == 34)
        #expect(batch.fixes[0].accuracy == 4.5)
        #expect(batch.fixes[2].coordinate == Coordinate(latitude: 52.522, longitude: 13.402))
    }

    @Test("given column names read a headerless file; a header line is then skipped")
    func givenColumns() {
        let options = FeedDecodingOptions(csvColumns: ["lon", "lat", "-", "time"])
        let headerless = decode("13.4,52.52,x,2025-03-01T10:00:00Z\n13.5,52.6,y,\n", format: .csv, options: options)
        #expect(headerless.diagnostics.isEmpty, "\(headerless.diagnostics)")
        #expect(
            headerless.fixes.map(\.coordinate) == [
                Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.6, longitude: 13.5),
            ])
        #expect(headerless.fixes.map { $0.time.map(RFC3339.format) } == ["2025-03-01T10:00:00Z", nil])

        // The file's own header names lat first; the given names win.
        let decoder = CSVDecoder(options: options)
        let withHeader = decoder.decodeAll(Array("lat,lon,name,time\n13.4,52.52,x,\n".utf8))
        #expect(withHeader.fixes.map(\.coordinate) == [Coordinate(latitude: 52.52, longitude: 13.4)])
        #expect(decoder.statistics.ignored["header"] == 1)
    }

    @Test("given column names without a position are refused once, with the reason")
    func unusableGivenColumns() throws {
        #expect(FeedDecodingOptions.problem(withCSVColumns: ["lon", "lat"]) == nil)
        #expect(FeedDecodingOptions.problem(withCSVColumns: ["utm_z", "utm_c", "utm_e", "utm_n"]) == nil)
        let problem = try #require(FeedDecodingOptions.problem(withCSVColumns: ["name", "ele"]))
        let batch = decode("1,2\n3,4\n", format: .csv, options: FeedDecodingOptions(csvColumns: ["name", "ele"]))
        #expect(batch.fixes.isEmpty)
        #expect(batch.diagnostics.map(\.code) == [.badHeader])
        #expect(batch.diagnostics.first?.message == problem + "; the file is skipped")
    }

    @Test("a header without a position is quoted in at most 80 characters, control characters escaped")
    func longHeaderIsQuotedInPart() throws {
        let header = "\u{1b}[2J" + String(repeating: "x", count: 3_000) + ",y"
        let batch = decode(header + "\nname,desc\n", format: .csv)
        let message = try #require(batch.diagnostics.first?.message)
        #expect(batch.diagnostics.map(\.code) == [.badHeader])
        #expect(
            message.hasPrefix("header '\\u{1b}[2J" + String(repeating: "x", count: 76) + "…' names no latitude"), "\(message)")
    }

    @Test("separate date and time-of-day columns, 12-hour clocks")
    func dateAndClock() {
        let text =
            "utc_d,utc_t,lat,lon\n2021/11/10,11:00:01 PM,66.0,-179.9\n2021-11-10,12:00:00 AM,66.1,179.9\n2014/09/17,13:20:20.004,1,2\n"
        let batch = decode(text, format: .csv)
        #expect(
            batch.fixes.map { $0.time.map(RFC3339.format) } == [
                "2021-11-10T23:00:01Z", "2021-11-10T00:00:00Z", "2014-09-17T13:20:20.004Z",
            ])
    }

    @Test("a time-of-day column with hundreds of digits after the point keeps nine of them")
    func longClockFraction() {
        let text = "date,time,lat,lon\n2021-11-10,11:00:01.25" + String(repeating: "0", count: 298) + ",66.0,-179.9\n"
        let batch = decode(text, format: .csv)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == ["2021-11-10T11:00:01.250000000Z"])
    }

    @Test("dates in year-first, US (m/d/yyyy) and German (d.m.yyyy) order")
    func dateOrders() {
        let text =
            "date,time,lat,lon\n2010-1-9,00:00:00,1,2\n1/9/2010,00:00:00,1,2\n9.1.2010,00:00:00,1,2\n2010.01.09,00:00:00,1,2\n"
        let batch = decode(text, format: .csv)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == Array(repeating: "2010-01-09T00:00:00Z", count: 4))
    }

    @Test(
        "dates that are not dates",
        arguments: [
            "1-9-2010", "1/9.2010", "13/1/2010", "2010/2/30", "20100/1/1", "1//2010", "9.1.10", "123456789012345678901/1/1",
        ])
    func badDates(date: String) {
        let batch = decode("date,time,lat,lon\n\(date),00:00:00,1,2\n", format: .csv)
        #expect(batch.fixes.isEmpty && batch.diagnostics.map(\.code) == [.badField], "\(date)")
    }

    @Test("latitude/longitude columns found by a part of their name where no name matches exactly")
    func looseNames() {
        let batch = decode("ilat,lon,descr,platform\n35.97203, -87.13470, x, y\n", format: .csv)
        #expect(batch.fixes.map(\.coordinate) == [Coordinate(latitude: 35.97203, longitude: -87.1347)])
        // An exact name wins over a partial one, whatever the order.
        let exact = decode("relation,lat,longitude_e,lon\n7,1,9,2\n", format: .csv)
        #expect(exact.fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
        // A combined "latlon" column is neither.
        #expect(decode("latlon,x\n1,2\n", format: .csv).diagnostics.map(\.code) == [.badHeader])
    }

    @Test(
        "written angles: degrees, minutes, seconds, hemispheres",
        arguments: [
            ("1.234°S", -1.234), ("1°14.04′S", -1.234), ("S1°14′2.4″", -1.234), ("-1° 14.04′", -1.234), ("N 0.5", 0.5),
        ])
    func angles(cell: String, latitude: Double) throws {
        let fix = try #require(decode("lat,lon\n\(cell),5.678°E\n", format: .csv).fixes.first)
        #expect(abs(fix.coordinate.latitude - latitude) < 1e-12)
        #expect(abs(fix.coordinate.longitude - 5.678) < 1e-12)
    }

    @Test("a headerless file is read as lat,lon")
    func headerless() {
        let batch = decode("35.97203, -87.13470, Mountain Bike Heaven\n36.05750, -86.89200, GittyUp\n", format: .csv)
        #expect(batch.fixes.map(\.coordinate.latitude) == [35.97203, 36.0575])
    }

    /// Hostile CSV rows: the legend, the input, the fixes kept, the diagnostic codes and lines.
    static let hostile: [(legend: String, input: String, fixes: Int, codes: [FeedDiagnostic.Code], lines: [Int])] = [
        ("missing latitude", "lat,lon\n,2\n1,2\n", 1, [.missingField], [2]),
        ("latitude not a number", "lat,lon\nabc,2\n1,2\n", 1, [.badField], [2]),
        ("out of range", "lat,lon\n95,2\n1,2\n", 1, [.badField], [2]),
        ("bad time", "time,lat,lon\nnoon,1,2\n2025-01-01T00:00:00Z,1,2\n", 1, [.badField], [2]),
        ("no usable header", "name,desc\nx,y\n", 0, [.badHeader], [1]),
        ("comments and blank lines", "# exported\nlat,lon\n\n# note\n1,2\n", 1, [], []),
        ("short row", "lat,lon,time\n1\n1,2\n", 1, [.missingField], [2]),
        ("date beyond the time range", "date,time,lat,lon\n9999/12/31,00:00:00,1,2\n", 0, [.badField], [2]),
    ]

    @Test("hostile CSV: located diagnostics, good rows kept", arguments: 0..<hostile.count)
    func hostileInput(row: Int) {
        let expected = Self.hostile[row]
        let batch = decode(expected.input, format: .csv)
        #expect(batch.fixes.count == expected.fixes, "\(expected.legend)")
        #expect(batch.diagnostics.map(\.code) == expected.codes, "\(expected.legend): \(batch.diagnostics)")
        #expect(batch.diagnostics.map(\.location.line) == expected.lines, "\(expected.legend)")
    }
}

@Suite("CSV cell trimming")
struct CSVTrimmingTests {
    @Test(
        "device names lose their surrounding spaces and tabs and keep everything else, non-ASCII included",
        arguments: [
            ("dev-1", "dev-1"), ("  dev-1", "dev-1"), ("dev-1 \t", "dev-1"), ("\t  Bus Nº 7  ", "Bus Nº 7"),
            (" Zürich\u{00A0}", "Zürich\u{00A0}"), ("a b", "a b"), (" 🚌 ", "🚌"),
        ])
    func deviceNames(cell: String, expected: String) {
        let batch = decode("lat,lon,time,device\n52.5,13.4,1700000000,\(cell)\n", format: .csv)
        #expect(batch.fixes.map(\.device) == [expected])
    }

    @Test("a cell of blanks only gives the empty name, which is the same device as none")
    func blankDevice() {
        let batch = decode("lat,lon,time,device\n52.5,13.4,1700000000, \t \n", format: .csv)
        #expect(batch.fixes.map(\.device) == [""])
    }
}

@Suite("CSV device names")
struct CSVDeviceNameTests {
    /// The decoder remembers the last cell it read as a device: cells
    /// spelled differently that name one device give one ID, and a
    /// device coming back after another is still itself.
    @Test func runsOfDevicesAndSpellingsOfOne() {
        let cells = ["car", "car", " car", "\"car\"", "bus", "car", "bus\t", "\"c\"\"ar\"", "car"]
        let rows = cells.enumerated().map { "52.5,13.4,\(1_700_000_000 + $0.offset),\($0.element)" }
        let batch = decode("lat,lon,time,device\n" + rows.joined(separator: "\n") + "\n", format: .csv)
        let expected = ["car", "car", "car", "car", "bus", "car", "bus", "c\"ar", "car"]
        #expect(batch.fixes.map(\.device) == expected)
        #expect(batch.fixes.map(\.deviceID) == expected.map(DeviceID.init))
    }

    /// Many devices taking turns, in runs, spelled in every way a cell can
    /// spell a name, decoded whole and in random chunks (the names of a
    /// chunk's records are interned together when the chunk ends): each
    /// record gets the ID of the name its cell spells.
    @Test("seeded: many devices in runs and in turns, in any chunking")
    func manyDevicesInAnyChunking() {
        let seed = SeededRandom.testSeed(default: 89)
        print("CSVDeviceNameTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let spellings: [(cell: [UInt8], name: String)] = [
            (Array("car".utf8), "car"), (Array(" car\t".utf8), "car"), (Array("\"car\"".utf8), "car"),
            (Array("\"c\"\"ar\"".utf8), "c\"ar"), (Array("c\"ar".utf8), "c\"ar"), (Array("bus".utf8), "bus"),
            (Array("vehicle-of-the-fleet-000017".utf8), "vehicle-of-the-fleet-000017"),
            (Array("vehicle-of-the-fleet-000018".utf8), "vehicle-of-the-fleet-000018"),
            (Array(" Zürich".utf8), "Zürich"), ([0x5A, 0xFF, 0x61], "Z\u{FFFD}a"), ([0x5A, 0xFE, 0x61], "Z\u{FFFD}a"),
        ]
        var bytes = Array("lat,lon,time,device\n".utf8)
        var expected: [String] = []
        var spelling = spellings[0]
        for row in 0..<4_000 {
            if random.next() % 3 != 0 {
                if random.next() % 2 == 0 {
                    spelling = spellings[Int(random.next() % UInt64(spellings.count))]
                } else {
                    let name = "fleet-\(random.next() % 700)"
                    spelling = (Array(name.utf8), name)
                }
            }
            bytes += Array("52.5,13.4,\(1_700_000_000 + row),".utf8) + spelling.cell + [0x0A]
            expected.append(spelling.name)
        }
        let whole = decode(bytes, format: .csv)
        #expect(whole.fixes.map(\.device) == expected, "seed \(seed)")
        #expect(whole.fixes.map(\.deviceID) == expected.map(DeviceID.init), "seed \(seed)")
        let sizes = (0..<2_000).map { _ in Int(random.next() % 300) }
        let chunked = decode(bytes, format: .csv, chunkSizes: sizes)
        #expect(chunked.fixes.map(\.deviceID) == expected.map(DeviceID.init), "seed \(seed)")
    }
}
