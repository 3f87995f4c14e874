import Foundation
import TestSupport
import Testing

/// Issue 16's extremes through the built binary: times at the ends of the
/// range, input that opens with megabytes of nothing, a huge GPX field, a
/// task whose schedule has billions of occurrences behind it.
@Suite("extreme input through the binary")
struct ExtremeInputTests {
    @Test("fixes in 1679 and 2260 (581 years apart), a 1000-week reorder window, dwell and cross: a normal run, never a trap")
    func timesAtTheEndsOfTheRange() throws {
        let folder = temporaryDirectory("repeat-extreme-times")
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(
            toFile: folder + "/regions.csv", atomically: true, encoding: .utf8)
        let feed = """
            time,lat,lon
            1600-01-01T00:00:00Z,48.1173,11.5167
            1679-01-01T00:00:00Z,48.1173,11.5167
            1679-01-01T00:00:10Z,48.1200,11.5200
            2260-01-01T00:00:00Z,48.1000,11.5000
            2260-01-01T00:00:10Z,48.1346,11.5334
            2260-01-01T00:00:20Z,48.1173,11.5167

            """
        for flags in [["--reorder-window", "1000w"], ["--dwell", "1m"], ["--reorder-window", "0s"]] {
            let result = try RepeatSimBinary.run(
                ["replay", "-", "--regions", folder + "/regions.csv", "--transitions", "--json"] + flags, input: feed)
            #expect(result.status == 0, "\(flags): \(result.stderr)")
            // Beyond the range of times (1678–2262): a located diagnostic, the row skipped.
            #expect(
                result.stderr.hasPrefix(
                    "<stdin>:2: badField: time '1600-01-01T00:00:00Z' is outside 1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z"),
                "\(flags): \(result.stderr)")
            #expect(result.stdout.hasPrefix(#"{"kind":"enter","time":"1679-01-01T00:00:00Z","region":"shop""#), "\(flags)")
            // The cross between 1679 and 2260 is interpolated over 581 years (in Double, not Int64 nanoseconds).
            #expect(result.stdout.contains(#"{"kind":"cross","time":"1762-10-23T07:38:49.019Z","region":"shop""#), "\(flags)")
            #expect(
                result.stdout.hasSuffix(
                    #"{"kind":"enter","time":"2260-01-01T00:00:20Z","region":"shop","distance_m":0.0}"# + "\n"))
        }
    }

    /// evaluate and the reports over fixes at the first and last instants
    /// a timestamp holds, and 581 years apart: windows, margins, spans and
    /// the decimation of a sweep passed the ends of an `Int64` and trapped.
    @Test("evaluate, its sweeps and the reports on times at the ends of the range and 581 years apart: no trap")
    func evaluateAtTheEndsOfTheRange() throws {
        let folder = temporaryDirectory("repeat-extreme-evaluate")
        let regions = folder + "/regions.csv"
        try "id,lat,lon,radius\nshop,48.1173,11.5167,100\n".write(toFile: regions, atomically: true, encoding: .utf8)
        let edges = folder + "/edges.csv", apart = folder + "/apart.csv"
        try """
        time,lat,lon
        1677-09-21T00:12:44Z,48.1000,11.5000
        1677-09-21T00:12:54Z,48.1173,11.5167
        1677-09-21T00:13:04Z,48.1346,11.5334
        2262-04-11T23:46:56Z,48.1000,11.5000
        2262-04-11T23:47:06Z,48.1173,11.5167
        2262-04-11T23:47:16Z,48.1346,11.5334

        """.write(toFile: edges, atomically: true, encoding: .utf8)
        try """
        time,lat,lon
        1679-01-01T00:00:00Z,48.1173,11.5167
        1679-01-01T00:00:10Z,48.1200,11.5200
        2260-01-01T00:00:00Z,48.1000,11.5000
        2260-01-01T00:00:10Z,48.1346,11.5334

        """.write(toFile: apart, atomically: true, encoding: .utf8)
        for (feed, truth) in [(edges, edges), (apart, apart), (edges, apart), (apart, edges)] {
            for flags in [
                ["--report", folder + "/report.html"], ["--sweep", "interval=1s,1e300", "--sweep", "dwell=off,5s"],
                ["--window", "365d,365d", "--json"],
            ] {
                let result = try RepeatSimBinary.run(["evaluate", feed, "--truth", truth, "--regions", regions] + flags)
                #expect(result.status == 0, "\(feed) \(truth) \(flags): \(result.stderr)")
            }
        }
        let both = try RepeatSimBinary.run(["evaluate", edges, "--truth", edges, "--regions", regions, "--json"])
        // The entries and exits at both ends are matched (the pass across the 585 years between is placed
        // apart by the truth's and the detector's interpolations, a miss and a false entry).
        #expect(both.stdout.contains(#""enter":{"tp":2,"#) && both.stdout.contains(#""exit":{"tp":2,"#), "\(both.stdout)")
        // A truth from the first instant to the last spans 5 124 096 h: a shard's file of it merges to the same output.
        let shard = try RepeatSimBinary.run([
            "evaluate", edges, "--truth", edges, "--regions", regions, "--json", "--shard", "0/1",
        ])
        try shard.stdout.write(toFile: folder + "/shard.jsonl", atomically: true, encoding: .utf8)
        let merged = try RepeatSimBinary.run(["merge", folder + "/shard.jsonl"])
        #expect(merged.status == 0 && merged.stdout == both.stdout, "\(merged.stderr)")
        let replay = try RepeatSimBinary.run(["replay", apart, "--regions", regions, "--report", folder + "/replay.html"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let wide = try RepeatSimBinary.run(["evaluate", edges, "--truth", edges, "--regions", regions, "--window", "366d,1s"])
        #expect(wide.status == 1)
        #expect(wide.stderr.hasPrefix("Error: --window '366d,1s': EARLY and LATE must each be at most a year (365d)"))
    }

    @Test("a feed that opens with 4 MB of NULs and comment lines is decided after a bounded prefix, and nothing after it is lost")
    func megabytesOfNothing() throws {
        var bytes = [UInt8](repeating: 0, count: 2 << 20)
        bytes += Array(String(repeating: "# nothing to see\n", count: 120_000).utf8)
        bytes += Array("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n".utf8)
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: bytes)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == #"{"time":"1994-03-23T12:35:19Z","lat":48.1173,"lon":11.516666667,"speed":11.523556,"course":84.4}"#
                + "\n")
    }

    @Test("a 20 MB <ele> is one short diagnostic; the point is kept without it")
    func hugeGPXField() throws {
        let huge = String(repeating: "9", count: 20_000_000)
        let gpx =
            #"<gpx><trk><trkseg><trkpt lat="48.1" lon="11.5"><ele>"# + huge
            + #"</ele><time>2025-03-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        let result = try RepeatSimBinary.run(["decode", "-", "--json"], input: gpx)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"time":"2025-03-01T10:00:00Z","lat":48.1,"lon":11.5}"# + "\n")
        #expect(result.stderr.count < 400, "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("<ele> has 20000000 bytes of text, more than 64 KiB"), "\(result.stderr.prefix(400))")
    }

    @Test("a task every second since 1970: done and show answer at once, with the right occurrence")
    func billionsOfOccurrences() throws {
        let db = temporaryDirectory("repeat-extreme-every") + "/repeat.sqlite"
        let add = try RepeatSimBinary.run([
            "task", "add", "--title", "Tick", "--every", "1s", "--start", "1970-01-01T00:00:00Z", "--db", db,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let done = try RepeatSimBinary.run(["task", "done", "tick", "--at", "2025-01-01T00:00:00.5Z", "--db", db])
        #expect(done.status == 0, "\(done.stderr)")
        let show = try RepeatSimBinary.run(["task", "show", "tick", "--json", "--at", "2025-01-01T00:00:00.5Z", "--db", db])
        #expect(show.stdout.contains(#""due":"2025-01-01T00:00:01Z""#), "\(show.stdout)")
    }
}
