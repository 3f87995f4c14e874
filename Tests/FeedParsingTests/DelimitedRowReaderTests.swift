import FeedParsing
import GeoCore
import Testing

@Suite("Delimited rows (the one reader of CSV headers and fields)")
struct DelimitedRowReaderTests {
    func rows(_ text: String) -> [DelimitedRow] { DelimitedRowReader.rows(in: Array(text.utf8)) }

    @Test("rows keep 1-based line numbers; blank and # lines are skipped", arguments: ["\n", "\r\n", "\r"])
    func lineNumbers(ending: String) {
        let text = ["id,lat", "", "# a comment", "a,1", "  ", "b,2"].joined(separator: ending)
        #expect(
            rows(text) == [
                DelimitedRow(line: 1, fields: ["id", "lat"]), DelimitedRow(line: 4, fields: ["a", "1"]),
                DelimitedRow(line: 6, fields: ["b", "2"]),
            ])
    }

    @Test("the delimiter is the first row's most frequent of , ; tab |", arguments: [",", ";", "\t", "|"])
    func delimiters(delimiter: String) {
        let text =
            ["name", "lat", "lon"].joined(separator: delimiter) + "\n" + ["a b", " 1.5 ", "2,5"].joined(separator: delimiter)
        let second = rows(text)[1].fields
        #expect(second.prefix(2) == ["a b", "1.5"])
        #expect(second.count == (delimiter == "," ? 4 : 3))
    }

    @Test("a byte-order mark is skipped; quoted fields keep delimiters and doubled quotes")
    func bomAndQuotes() {
        let text = "\u{FEFF}id,lat\n\"Bakery, \"\"Old\"\"\",\" 45.2 \"\n"
        #expect(
            rows(text) == [
                DelimitedRow(line: 1, fields: ["id", "lat"]),
                DelimitedRow(line: 2, fields: ["Bakery, \"Old\"", "45.2"]),
            ])
    }

    @Test("UTF-16 text with a byte-order mark reads like UTF-8")
    func utf16() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "id;lat\r\nx;1\r\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(
            DelimitedRowReader.rows(in: bytes) == [
                DelimitedRow(line: 1, fields: ["id", "lat"], delimiter: 0x3B),
                DelimitedRow(line: 2, fields: ["x", "1"], delimiter: 0x3B),
            ])
    }

    @Test("numbers: a decimal point always, a decimal comma only where the fields are not comma-separated")
    func numbers() {
        let semicolons = DelimitedRow(line: 1, fields: ["45,27", "-13,5", "1.5", "1,5,2", "1,5.2", "x", ""], delimiter: 0x3B)
        #expect((0..<8).map(semicolons.number(at:)) == [45.27, -13.5, 1.5, nil, nil, nil, nil, nil])
        let commas = DelimitedRow(line: 1, fields: ["45,27", "1.5"], delimiter: 0x2C)
        #expect([commas.number(at: 0), commas.number(at: 1)] == [nil, 1.5])
        #expect(DelimitedRowReader.rows(in: Array("a|b\n2,5|3\n".utf8)).last?.number(at: 0) == 2.5)
    }

    @Test(
        "header names match loosely through one alias table",
        arguments: [
            (CSVField.latitude, ["lat", "Latitude", " \"LAT\" "]),
            (.longitude, ["lon", "lng", "Long", "longitude"]),
            (.time, ["time", "Timestamp", "t"]),
            (.radius, ["radius", "radius_m", "Radius (m)", "r"]),
            (.region, ["id", "name", "Region-ID"]),
            (.device, ["device", "Device_ID", "id"]),
        ])
    func aliases(field: CSVField, names: [String]) {
        for name in names {
            #expect(field.column(in: ["other", CSVField.normalize(name)]) == 1, "\(name)")
        }
        #expect(field.column(in: ["other"]) == nil)
    }

    @Test(
        "the CSV feed reads the header variants every delimited reader accepts",
        arguments: [
            "t,lat,lon", "time;latitude;longitude", "timestamp\tLat\tLng", "Time|Latitude|Long",
        ])
    func feedHeaders(header: String) {
        let delimiter = header.first { ",;\t|".contains($0) }!
        let text = header + "\n" + ["1700000000", "52.5", "13.4"].joined(separator: String(delimiter)) + "\n"
        let batch = decode(text, format: .csv)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.map(\.coordinate) == [Coordinate(latitude: 52.5, longitude: 13.4)])
        #expect(batch.fixes.first?.time == Timestamp(nanoseconds: 1_700_000_000_000_000_000, fractionDigits: 0))
    }
}
