import FeedParsing
import GeoCore
import Testing

/// `$BODY*hh` without a line end: a hand-made sentence with the encoder's checksum.
func sentence(_ body: String) -> String {
    String(decoding: NMEAEncoder.sentence(body).utf8.dropLast(2), as: UTF8.self)
}

let gga = sentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
let rmc = sentence("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
let nextGGA = sentence("GPGGA,123520.00,4807.040,N,01131.002,E,1,08,1.1,545.6,M,46.9,M,,")

@Suite("NMEA 0183 decoder")
struct NMEADecoderTests {
    @Test("GGA and RMC of one UTC time merge into one fix with every field")
    func epochMerge() throws {
        let batch = decode(gga + "\r\n" + rmc + "\r\n", format: .nmea)
        #expect(batch.diagnostics.isEmpty)
        let fix = try #require(batch.fixes.first)
        #expect(batch.fixes.count == 1)
        #expect(fix.time.map(RFC3339.format) == "1994-03-23T12:35:19.00Z")
        #expect(abs(fix.coordinate.latitude - (48 + 7.038 / 60)) < 1e-13)
        #expect(abs(fix.coordinate.longitude - (11 + 31.0 / 60)) < 1e-13)
        #expect(fix.elevation == 545.4)
        #expect(fix.hdop == 0.9)
        #expect(fix.course == 84.4)
        #expect(fix.speed == 22.4 * (1852.0 / 3600))
    }

    @Test("VTG and GSA without a time belong to the epoch in progress")
    func untimedSentences() throws {
        let text = [
            sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,,545.4,M,46.9,M,,"),
            sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
            sentence("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K"),
        ].joined(separator: "\n")
        let batch = decode(
            text, format: .nmea, options: FeedDecodingOptions(defaultDate: CivilCalendar.days(year: 2024, month: 5, day: 1)))
        let fix = try #require(batch.fixes.first)
        #expect(fix.hdop == 1.3)
        #expect(fix.course == 54.7)
        #expect(fix.speed == 5.5 * (1852.0 / 3600))
        #expect(fix.time.map(RFC3339.format) == "2024-05-01T12:35:19Z")
    }

    @Test("a checksum field of a thousand characters is quoted in twelve")
    func longChecksumFieldIsQuotedInPart() throws {
        let batch = decode(gga.dropLast(2) + String(repeating: "Z", count: 1_000) + "\n" + rmc + "\n", format: .nmea)
        #expect(batch.diagnostics.map(\.code) == [.badChecksum])
        #expect(
            batch.diagnostics.first?.message
                == "checksum field '" + String(repeating: "Z", count: 12) + "…' is not two hex digits; sentence skipped")
    }

    @Test("the date carries forward across midnight")
    func midnightRollover() {
        let text = [
            sentence("GPRMC,235959,A,4807.038,N,01131.000,E,0.0,0.0,311224,,"),
            sentence("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            sentence("GPGGA,000001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\r\n")
        let times = decode(text, format: .nmea).fixes.compactMap { $0.time.map(RFC3339.format) }
        #expect(times == ["2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z"])
    }

    @Test("each RMC's own date counts, whether repeated, changed, unreadable or back again")
    func rmcDates() {
        let dates = ["311224", "311224", "010125", "320125", "010125", "311224", "31122A", "311224"]
        let text = dates.enumerated().map { second, date in
            sentence("GPRMC,12000\(second),A,4807.038,N,01131.000,E,0.0,0.0,\(date),,")
        }.joined(separator: "\r\n")
        let batch = decode(text, format: .nmea)
        let times = batch.fixes.compactMap { $0.time.map(RFC3339.format) }
        #expect(
            times == [
                "2024-12-31T12:00:00Z", "2024-12-31T12:00:01Z", "2025-01-01T12:00:02Z", "2025-01-01T12:00:04Z",
                "2024-12-31T12:00:05Z", "2024-12-31T12:00:07Z",
            ])
        #expect(
            batch.diagnostics.map(\.message) == [
                "GPRMC: date '320125' is not ddmmyy; skipped", "GPRMC: date '31122A' is not ddmmyy; skipped",
            ])
    }

    @Test("a date-less log needs --date; without it the fixes are counted as noDate")
    func dateOption() {
        let text = sentence("GPGGA,220000,5013.476,N,01710.477,E,1,09,0.8,468.7,M,0.0,M,,") + "\n"
        let without = decode(text, format: .nmea)
        #expect(without.fixes.isEmpty)
        #expect(without.diagnostics.map(\.code) == [.noDate])
        let with = decode(
            text, format: .nmea, options: FeedDecodingOptions(defaultDate: CivilCalendar.days(year: 2019, month: 3, day: 8)))
        #expect(with.fixes.compactMap { $0.time.map(RFC3339.format) } == ["2019-03-08T22:00:00Z"])
    }

    @Test("a date-less log's midnights stop at the last day a timestamp holds, where the day overflowed")
    func lastDay() {
        let text = ["120000", "235959", "000001", "235959", "000001", "120000", "235959"].map {
            sentence("GPGGA,\($0),5013.476,N,01710.477,E,1,09,0.8,468.7,M,0.0,M,,")
        }.joined(separator: "\n")
        let options = FeedDecodingOptions(defaultDate: CivilCalendar.days(year: 2262, month: 4, day: 9))
        #expect(FeedDecodingOptions.datesHeld.upperBound == CivilCalendar.days(year: 2262, month: 4, day: 10))
        #expect(FeedDecodingOptions.datesHeld.lowerBound == CivilCalendar.days(year: 1677, month: 9, day: 22))
        let times = decode(text, format: .nmea, options: options).fixes.compactMap { $0.time.map(RFC3339.format) }
        #expect(
            times == [
                "2262-04-09T12:00:00Z", "2262-04-09T23:59:59Z", "2262-04-10T00:00:01Z", "2262-04-10T23:59:59Z",
                "2262-04-10T00:00:01Z", "2262-04-10T12:00:00Z", "2262-04-10T23:59:59Z",
            ])
    }

    @Test("fixes before the first date are back-filled from it, across midnight")
    func backfill() {
        let text = [
            sentence("GPGGA,235959,5013.476,N,01710.477,E,1,09,0.8,468.7,M,0.0,M,,"),
            sentence("GPZDA,000000,09,03,2019,00,00"),
            sentence("GPGGA,000001,5013.476,N,01710.477,E,1,09,0.8,468.7,M,0.0,M,,"),
        ].joined(separator: "\n")
        let times = decode(text, format: .nmea).fixes.compactMap { $0.time.map(RFC3339.format) }
        #expect(times == ["2019-03-08T23:59:59Z", "2019-03-09T00:00:01Z"])
    }

    @Test(
        "back-filled dates never make time run backwards",
        arguments: [
            // Twelve hours between held fixes, then a midnight: the evening is the day before.
            (["010000", "123000"], "003000", ["2019-03-08T01:00:00Z", "2019-03-08T12:30:00Z", "2019-03-09T00:30:00Z"]),
            // Two midnights among the held fixes.
            (
                ["230000", "100000", "220000"], "010000",
                ["2019-03-07T23:00:00Z", "2019-03-08T10:00:00Z", "2019-03-08T22:00:00Z", "2019-03-09T01:00:00Z"]
            ),
            // Sentences a few seconds out of order stay as the input has them, on the same day.
            (["100005"], "100000", ["2019-03-09T10:00:05Z", "2019-03-09T10:00:00Z"]),
        ])
    func backfillIsMonotonic(held: [String], dated: String, expected: [String]) {
        let text =
            held.map { sentence("GPGGA,\($0),5013.476,N,01710.477,E,1,09,0.8,468.7,M,0.0,M,,") }
            + [sentence("GPRMC,\(dated),A,5013.476,N,01710.477,E,0.0,0.0,090319,,,A")]
        let times = decode(text.joined(separator: "\n"), format: .nmea).fixes.compactMap { $0.time.map(RFC3339.format) }
        #expect(times == expected)
    }

    @Test("GLL copies of a GGA/RMC fix are dropped and counted; other GLL-only epochs are fixes")
    func strayGLL() {
        func gll(_ time: String, _ latitude: String) -> String { sentence("GPGLL,\(latitude),N,00634.4228,E,\(time),A") }
        func fix(_ time: String, _ latitude: String) -> [String] {
            [
                sentence("GPGGA,\(time),\(latitude),N,00634.4228,E,1,05,2.6,0,M,,,,"),
                sentence("GPRMC,\(time),A,\(latitude),N,00634.4228,E,0.0,0.0,200506,00,W"),
            ]
        }
        // Magellan eXplorist: GLL at millisecond, GGA/RMC at centisecond resolution.
        let explorist =
            [gll("200619.295", "5313.2228")] + fix("200619.30", "5313.2228")
            + [gll("200620.303", "5313.2228")] + fix("200620.30", "5313.2228")
            + [gll("200621.297", "5313.2227")] + fix("200621.30", "5313.2227")
            // GGA/RMC stop; a GLL one second later with a new position is a fix.
            + [gll("200622.30", "5313.2226")]
        let decoder = NMEADecoder()
        let batch = decoder.decodeAll(Array(explorist.joined(separator: "\r\n").utf8))
        #expect(
            batch.fixes.compactMap { $0.time.map(RFC3339.format) } == [
                "2006-05-20T20:06:19.295Z", "2006-05-20T20:06:19.30Z", "2006-05-20T20:06:20.30Z",
                "2006-05-20T20:06:21.30Z", "2006-05-20T20:06:22.30Z",
            ])
        #expect(decoder.statistics.ignored["GLL copy of a GGA/RMC fix"] == 2)

        // Garmin 48: GLL one second after the cycle's GGA/RMC, repeating its position.
        let garmin = fix("225308", "4527.458") + [gll("225309", "4527.458")] + fix("225310", "4527.459")
        let garminDecoder = NMEADecoder()
        let garminFixes = garminDecoder.decodeAll(Array(garmin.joined(separator: "\n").utf8)).fixes
        #expect(garminFixes.compactMap { $0.time.map(RFC3339.format) } == ["2006-05-20T22:53:08Z", "2006-05-20T22:53:10Z"])
        #expect(garminDecoder.statistics.ignored["GLL copy of a GGA/RMC fix"] == 1)

        // A receiver standing still that sends GLL every second (also in its GGA/RMC
        // cycles) and GGA/RMC every third: each GLL-only epoch is a fix, same position or not.
        let still = (0..<6).flatMap { second -> [String] in
            let time = "10000\(second)"
            return second % 3 == 0 ? fix(time, "5313.2228") + [gll(time, "5313.2228")] : [gll(time, "5313.2228")]
        }
        let stillDecoder = NMEADecoder()
        let stillFixes = stillDecoder.decodeAll(Array(still.joined(separator: "\n").utf8)).fixes
        #expect(stillFixes.count == 6)
        #expect(stillDecoder.statistics.ignored["GLL copy of a GGA/RMC fix"] == nil)
    }

    @Test(
        "two-digit years pivot at 80",
        arguments: [("230394", "1994-03-23"), ("010180", "1980-01-01"), ("311279", "2079-12-31"), ("070898", "1998-08-07")])
    func yearPivot(date: String, expected: String) throws {
        let text = sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,\(date),,")
        let fix = try #require(decode(text, format: .nmea).fixes.first)
        #expect(fix.time.map(RFC3339.format) == expected + "T12:00:00Z")
    }

    @Test("invalid epochs (RMC V, GGA quality 0) are counted, not emitted")
    func invalidEpochs() {
        let text = [
            sentence("GPGGA,123519,,,,,0,00,,,M,,M,,"),
            sentence("GPRMC,123519,V,,,,,,,230394,,"),
            sentence("GPRMC,123520,V,4807.038,N,01131.000,E,0.0,0.0,230394,,"),
        ].joined(separator: "\n")
        let batch = decode(text, format: .nmea)
        #expect(batch.fixes.isEmpty)
        #expect(batch.diagnostics.map(\.code) == [.invalidFix, .invalidFix])
        #expect(batch.diagnostics.allSatisfy { !$0.isInputError })
        // Their times still move the feed's clock on.
        #expect(batch.epochsWithoutFix.map { RFC3339.format($0.time) } == ["1994-03-23T12:35:19Z", "1994-03-23T12:35:20Z"])
    }

    @Test("a quiet receiver's epoch in progress is released without waiting for the next one; decoding goes on")
    func releaseEpoch() {
        let decoder = NMEADecoder()
        var batch = FeedBatch()
        decoder.decode(Array((sentence("GPRMC,123519,A,4807.038,N,01131.000,E,0.0,0.0,230394,,") + "\n").utf8), into: &batch)
        #expect(batch.fixes.isEmpty, "the epoch may have more sentences")
        decoder.release(into: &batch)
        #expect(batch.fixes.count == 1)
        decoder.decode(Array((sentence("GPRMC,123520,A,4807.038,N,01131.000,E,0.0,0.0,230394,,") + "\n").utf8), into: &batch)
        decoder.finish(into: &batch)
        #expect(batch.fixes.compactMap { $0.time.map(RFC3339.format) } == ["1994-03-23T12:35:19Z", "1994-03-23T12:35:20Z"])
    }

    @Test("any talker, lower-case checksums, missing checksums are accepted")
    func talkersAndChecksums() {
        let lower = sentence("GNRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,010124,,").lowercasedChecksum()
        let texts = [
            lower,
            sentence("BDGGA,120001,4807.038,N,01131.000,E,1,08,0.9,1,M,1,M,,"),
            "$GARMC,120002,A,4807.038,N,01131.000,E,0.0,0.0,010124,,",
            sentence("QZGLL,4807.039,N,01131.000,E,120003,A"),
        ]
        let batch = decode(texts.joined(separator: "\n"), format: .nmea)
        #expect(batch.diagnostics.isEmpty)
        #expect(batch.fixes.count == 4)
    }

    /// STYLE.md item 5: a legend-per-row table of hostile inputs. Each row:
    /// the input, the fixes expected, the diagnostics expected (code, line).
    static let hostileInputs: [(legend: String, input: String, fixes: Int, diagnostics: [FeedDiagnostic.Code], lines: [Int])] = [
        ("clean pair", gga + "\n" + rmc + "\n", 1, [], []),
        ("garbage before a sentence on its line", "\u{01}\u{02}xyz" + gga + "\n" + rmc + "\n", 1, [.garbage], [1]),
        ("binary noise line between sentences", gga + "\n\u{FF}\u{FE}\u{00}noise\n" + rmc + "\n", 1, [.garbage], [2]),
        ("free text line", "AMOD 3080 logger\n" + gga + "\n" + rmc + "\n", 1, [.garbage], [1]),
        ("wrong checksum drops only that sentence", gga.dropLast(2) + "00\n" + rmc + "\n", 1, [.badChecksum], [1]),
        ("checksum with non-hex digits", gga.dropLast(2) + "ZZ\n" + rmc + "\n", 1, [.badChecksum], [1]),
        ("collision: a sentence cut by the next $", String(gga.prefix(30)) + rmc + "\n", 1, [.truncated], [1]),
        ("$$ prefix", "$" + gga + "\n$" + rmc + "\n", 1, [], []),
        ("truncated last line without checksum", gga + "\n" + rmc + "\n" + String(nextGGA.prefix(40)), 1, [.truncated], [3]),
        ("unterminated last line with checksum", gga + "\n" + rmc + "\n" + nextGGA, 2, [], []),
        ("short GGA", sentence("GPGGA,123519,4807.038") + "\n" + rmc + "\n", 1, [.missingField], [1]),
        (
            "bad latitude field",
            sentence("GPGGA,123519.00,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\n" + rmc + "\n", 1, [.badField], [1]
        ),
        (
            "bad hemisphere", sentence("GPRMC,123519.00,A,4807.038,Q,01131.000,E,022.4,084.4,230394,003.1,W") + "\n", 0,
            [.badField], [1]
        ),
        (
            "bad time", sentence("GPGGA,12x519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\n" + rmc + "\n", 1,
            [.badField], [1]
        ),
        ("blank lines, comments and CR-only line ends", "# header\r\r" + gga + "\r\r" + rmc + "\r", 1, [], []),
        (
            "GSV, proprietary and AIS are ignored silently",
            sentence("GPGSV,1,1,01,01,40,083,46") + "\n" + sentence("PGRME,15.0,M,45.0,M,25.0,M") + "\n!AIVDM,1,1,,B,x,0*00\n"
                + gga + "\n" + rmc + "\n", 1, [], []
        ),
    ]

    @Test(
        "hostile inputs: each bad record is one located diagnostic and nothing good is lost", arguments: 0..<hostileInputs.count)
    func hostile(row: Int) {
        let expected = Self.hostileInputs[row]
        let batch = decode(expected.input, format: .nmea)
        #expect(batch.fixes.count == expected.fixes, "\(expected.legend)")
        #expect(batch.diagnostics.map(\.code) == expected.diagnostics, "\(expected.legend): \(batch.diagnostics)")
        #expect(batch.diagnostics.map(\.location.line) == expected.lines, "\(expected.legend)")
    }

    @Test("a time of day with hundreds of digits after the point keeps nine of them")
    func longTimeFraction() throws {
        let fraction = "5" + String(repeating: "0", count: 299)
        let text = [
            sentence("GPGGA,123519.\(fraction),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            sentence("GPRMC,123519.\(fraction),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"),
        ].joined(separator: "\r\n")
        let batch = decode(text, format: .nmea)
        #expect(batch.diagnostics.isEmpty)
        let fix = try #require(batch.fixes.first)
        #expect(batch.fixes.count == 1)
        #expect(fix.time.map(RFC3339.format) == "1994-03-23T12:35:19.500000000Z")
    }

    @Test("UTF-16LE and UTF-16BE with a BOM decode like UTF-8")
    func utf16() {
        let text = gga + "\r\n" + rmc + "\r\n" + nextGGA + "\r\n"
        let utf8 = decode(text, format: .nmea).fixes
        var little: [UInt8] = [0xFF, 0xFE]
        var big: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(utf8.count == 2)
        #expect(decode(little, format: .nmea).fixes == utf8)
        #expect(decode(big, format: nil).fixes == utf8)
        #expect(decode(little, format: .nmea, chunkSizes: repeatElement(1, count: little.count)).fixes == utf8)
    }

    @Test("an over-long line of noise is bounded and the next sentence survives")
    func overlongNoise() {
        let noise = String(repeating: "$GPGGA,1", count: 1) + String(repeating: "9", count: 10_000)
        let batch = decode(noise + "\n" + gga + "\n" + rmc + "\n", format: .nmea)
        #expect(batch.fixes.count == 1)
        #expect(batch.diagnostics.map(\.code) == [.truncated])
    }
}

extension String {
    /// The sentence with its checksum digits in lower case.
    func lowercasedChecksum() -> String {
        guard let star = lastIndex(of: "*") else { return self }
        return String(self[..<star]) + self[star...].lowercased()
    }
}
