import Foundation
import TestSupport
import Testing

@Suite("repeat-sim decode")
struct DecodeCommandTests {
    static let nmeaTrack = RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea")
    static let gpxTrack = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")

    @Test("--json prints the track's golden lines and a summary on stderr")
    func json() throws {
        let result = try RepeatSimBinary.run(["decode", Self.nmeaTrack, "--json"])
        #expect(result.status == 0)
        let expected = try String(contentsOfFile: Self.nmeaTrack + ".expected.jsonl", encoding: .utf8)
        #expect(result.stdout == expected)
        #expect(
            result.stderr.hasSuffix(
                "gpsd-haicom-305N-stationary-then-moving.nmea (nmea): 68 fixes, 6 skipped (invalidFix 6); ignored: GSV 79, comment 10\n"
            ))
        #expect(result.stderr.contains(".nmea:12: invalidFix: epoch 09:52:55 UTC: RMC status V (no fix)\n"))
    }

    @Test("FEED - reads standard input, any format")
    func standardInput() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.gpxTrack)))
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: bytes)
        #expect(result.status == 0)
        #expect(result.stdout == (try String(contentsOfFile: Self.gpxTrack + ".expected.jsonl", encoding: .utf8)))
        #expect(result.stderr == "<stdin> (gpx): 104 fixes, 0 skipped\n")
    }

    @Test("a feed through a pipe that has a path (a shell's <(…)) is decoded whole: no byte is taken to look at it")
    func pipeWithPath() throws {
        let result = try runProcess(
            "/bin/bash", ["-c", #""$0" decode <(cat "$1") --json"#, RepeatSimBinary.path, Self.gpxTrack])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try String(contentsOfFile: Self.gpxTrack + ".expected.jsonl", encoding: .utf8)))
        #expect(result.stderr.hasSuffix("(gpx): 104 fixes, 0 skipped\n"), "\(result.stderr)")
    }

    @Test("the table without --json")
    func table() throws {
        let input = "time,lat,lon,ele,device\n2025-03-01T10:00:00Z,52.52,13.4,34,phone\n"
        let result = try RepeatSimBinary.run(["decode", "-"], input: Array(input.utf8))
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("time "))
        #expect(
            lines[0]
                == "time                                 latitude       longitude      ele    speed  course   hdop    acc  device"
        )
        #expect(
            lines[1]
                == "2025-03-01T10:00:00Z             52.520000000    13.400000000     34.0        -       -      -      -  phone")
    }

    @Test("--strict exits 2 at the first malformed record; without it the rest is decoded")
    func strict() throws {
        let input =
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00\n$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n"
        let lenient = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(input.utf8))
        #expect(lenient.status == 0)
        #expect(
            lenient.stdout
                == "{\"time\":\"1994-03-23T12:35:19Z\",\"lat\":48.1173,\"lon\":11.516666667,\"speed\":11.523556,\"course\":84.4}\n"
        )
        #expect(lenient.stderr.hasPrefix("<stdin>:1: badChecksum: checksum 00 does not match the sentence (computed 47)"))
        let strict = try RepeatSimBinary.run(["decode", "-", "--json", "--strict"], input: Array(input.utf8))
        #expect(strict.status == 2)
        #expect(strict.stdout.isEmpty)
    }

    @Test("numbers are written as people write them: no conversion noise")
    func numbersAsPeopleWriteThem() throws {
        // 0.117 knots is 0.060189… m/s; a gpsd report's 0.06019 stays 0.06019.
        let tpv = #"{"class":"TPV","mode":2,"time":"2025-03-01T10:00:00Z","lat":52.52,"lon":13.4,"speed":0.06019,"eph":4.1}"#
        let decoded = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array((tpv + "\n").utf8))
        #expect(decoded.stdout.contains(#""speed":0.06019,"#), "\(decoded.stdout)")
        let knots = "$GPRMC,120000,A,4807.038,N,01131.000,E,0.117,84.4,230394,,,A*41\n"
        let converted = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(knots.utf8))
        #expect(converted.stdout.contains(#""lat":48.1173,"lon":11.516666667,"speed":0.06019,"#), "\(converted.stdout)")
    }

    @Test("numbers out of any range never trap: a gpsd mode of 1e19, an elevation of 1e19 in the table")
    func hostileNumbers() throws {
        let mode = #"{"class":"TPV","mode":1e19,"time":"2025-03-01T10:00:00Z","lat":52.52,"lon":13.4}"#
        let noFix = try RepeatSimBinary.run(["decode", "-"], input: Array((mode + "\n").utf8))
        #expect(noFix.status == 0, "\(noFix.stderr)")
        #expect(noFix.stderr.contains("invalidFix: TPV with mode 0 (no fix)"), "\(noFix.stderr)")
        let huge = "time,lat,lon,ele,speed\n2025-03-01T10:00:00Z,52.5,13.4,1e19,5e300\n"
        let table = try RepeatSimBinary.run(["decode", "-"], input: Array(huge.utf8))
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("1e+19") && table.stdout.contains("5e+300"), "\(table.stdout)")
    }

    @Test("a GPX byte that is not in the declared encoding: one located diagnostic, every point kept, file and pipe alike")
    func gpxEncodingErrors() throws {
        let folder = temporaryDirectory("gpx-encoding")
        var utf8 = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx><trk><trkseg>\n"
        for k in 0..<5000 { utf8 += "<trkpt lat=\"50.\(k)\" lon=\"8\"><time>2024-01-01T00:00:00Z</time></trkpt>\n" }
        utf8 += "</trkseg></trk></gpx>\n"
        let text = Array(utf8.utf8)
        let cut = text.indices.filter { text[$0] == 0x0A }[2999] + 1  // the start of line 3001
        let cp1252 = Array(text[..<cut]) + [0xE9] + Array(text[cut...])
        // UTF-16LE with a BOM and half a surrogate pair at the start of line 3001.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in utf8.replacingOccurrences(of: "UTF-8", with: "UTF-16").utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let newlines = stride(from: 2, to: utf16.count, by: 2).filter { utf16[$0] == 0x0A && utf16[$0 + 1] == 0 }
        let cut16 = newlines[2999] + 2
        let halfPair = Array(utf16[..<cut16]) + [0x00, 0xD8] + Array(utf16[cut16...])
        for (name, bytes, encoding) in [
            ("cp1252.gpx", cp1252, "byte 0xE9 is not UTF-8"), ("half.gpx", halfPair, "bytes 0x00 0xD8 are not UTF-16LE"),
        ] {
            let path = folder + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let file = try RepeatSimBinary.run(["decode", path, "--json"])
            let pipe = try RepeatSimBinary.run(["decode", "-", "--json"], input: bytes)
            #expect(file.status == 0 && pipe.status == 0)
            #expect(file.stdout.split(separator: "\n").count == 5000, "\(name)")
            #expect(pipe.stdout == file.stdout, "\(name)")
            // Only Repeat's located lines: nothing libxml2 writes itself.
            #expect(
                file.stderr == "\(path):3001: badXML: \(encoding); read as U+FFFD (\u{FFFD})\n"
                    + "\(path) (gpx): 5000 fixes, 1 skipped (badXML 1)\n", "\(file.stderr)")
            #expect(pipe.stderr == file.stderr.replacingOccurrences(of: path, with: "<stdin>"))
            let strict = try RepeatSimBinary.run(["decode", path, "--json", "--strict"])
            #expect(strict.status == 2, "\(name)")
        }
    }

    @Test("a negative accuracy is a broken record, skipped with its line, not a very accurate fix")
    func negativeAccuracy() throws {
        let csv = "time,lat,lon,accuracy\n2025-03-01T10:00:00Z,52.5,13.4,-5\n2025-03-01T10:00:01Z,52.5,13.4,5\n"
        let decoded = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array(csv.utf8))
        #expect(decoded.stdout.split(separator: "\n").count == 1)
        #expect(decoded.stderr.contains("<stdin>:2: badField: accuracy -5.0 is negative; row skipped"), "\(decoded.stderr)")
        let tpv = #"{"class":"TPV","mode":3,"time":"2025-03-01T10:00:00Z","lat":52.52,"lon":13.4,"eph":-1}"#
        let gpsd = try RepeatSimBinary.run(["decode", "-", "--json"], input: Array((tpv + "\n").utf8))
        #expect(gpsd.stdout.isEmpty)
        #expect(gpsd.stderr.contains("badField: TPV eph -1.0 is negative; skipped"), "\(gpsd.stderr)")
    }

    @Test("--date dates a GGA-only log; --waypoints lists GPX waypoints")
    func dateAndWaypoints() throws {
        let gga = "$GPGGA,220000,5013.476,N,01710.477,E,1,09,0.8,468.770,M,0.0,M,,*78\n"
        let dated = try RepeatSimBinary.run(["decode", "-", "--json", "--date", "2019-03-08"], input: Array(gga.utf8))
        #expect(
            dated.stdout
                == "{\"time\":\"2019-03-08T22:00:00Z\",\"lat\":50.2246,\"lon\":17.174616667,\"ele\":468.77,\"hdop\":0.8}\n")
        let gpx =
            "<gpx><wpt lat=\"52.5163\" lon=\"13.3777\"><name>Pharmacy</name></wpt><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let waypoints = try RepeatSimBinary.run(["decode", "-", "--json", "--waypoints"], input: Array(gpx.utf8))
        #expect(waypoints.stdout == "{\"name\":\"Pharmacy\",\"lat\":52.5163,\"lon\":13.3777}\n")
    }

    @Test("--columns reads a headerless, longitude-first CSV")
    func columns() throws {
        let csv = "-28.606309,41.491196,85.918,Wpt_RD,\n-28.605513,41.492136,0.027,Wpt_ahVv,1970-01-01T00:00:01.189Z\n"
        let result = try RepeatSimBinary.run(
            ["decode", "-", "--json", "--columns", "lon,lat,ele,name,time"], input: Array(csv.utf8))
        #expect(result.status == 0)
        #expect(
            result.stdout
                == "{\"lat\":41.491196,\"lon\":-28.606309,\"ele\":85.918}\n{\"time\":\"1970-01-01T00:00:01.189Z\",\"lat\":41.492136,\"lon\":-28.605513,\"ele\":0.027}\n"
        )
    }

    @Test(
        "usage errors exit 1 with a message",
        arguments: [
            (["decode"], "Error: give at least one FEED"),
            (["decode", "x.nmea", "--date", "8.3.2019"], "Error: --date '8.3.2019' is not a date like 2019-03-08"),
            (
                ["decode", "x.nmea", "--date", "2262-04-11"],
                "Error: --date '2262-04-11' is outside 1677-09-22 to 2262-04-10, the days a feed's times can hold"
            ),
            (
                ["generate", "--via", "45,13", "--via", "45.01,13", "--start", "2300-01-01T00:00:00Z"],
                "Error: --start '2300-01-01T00:00:00Z' is outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z, the times a feed can hold"
            ),
            (["decode", "-", "-"], "Error: standard input (-) can be read only once"),
            (
                ["decode", "x.csv", "--columns", "name,ele"],
                "Error: --columns: the column names name,ele name no latitude and longitude"
            ),
            (
                ["replay", "x.csv", "--regions", "r.csv", "--columns", "x,y"],
                "Error: --columns: the column names x,y name no latitude"
            ),
            (["decode", "/nonexistent/feed.nmea"], "Error: cannot read \"/nonexistent/feed.nmea\": no such file"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try RepeatSimBinary.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    @Test("a pipe streams: the first fix is printed before the input ends")
    func streaming() throws {
        let decode = try RunningRepeatSim(["decode", "-", "--json", "--format", "nmea"], input: true)
        defer { decode.stop() }
        // Two epochs: the second one closes the first, which must come out now.
        let text =
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n$GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*60\n"
        decode.write(Data(text.utf8))
        let arrived = (try? waitUntil("the first fix") { decode.output.get().contains(0x0A) }) != nil
        decode.closeInput()
        try waitUntil("decode to end") { !decode.isRunning }
        #expect(arrived, "no fix came out while the pipe was still open")
        #expect(decode.outputText.hasPrefix("{\"time\":\"1994-03-23T12:35:19Z\""))
    }
}
