import Foundation
import GeoCore
import Simulation
import TestSupport
import Testing

/// `repeat-sim generate` end to end, as a user runs it: the bytes it
/// writes, what `decode` and `replay` make of them, its manifest and its
/// refusals.
@Suite("repeat-sim generate")
struct GenerateCommandTests {
    /// A 1 400.5 m walk due north from 52.52 N 13.40 E: 1 000.4 s at
    /// 1.4 m/s, so every 10 s gives 101 fixes (0 s … 1 000 s).
    static let walkStart = Coordinate(latitude: 52.52, longitude: 13.40)
    static let walkEnd = Coordinate(latitude: 52.52 + 1400.5 / Geodesy.earthRadius * 180 / .pi, longitude: 13.40)
    static let walk = "\(walkStart.latitude),\(walkStart.longitude);\(String(format: "%.9f", walkEnd.latitude)),13.40"
    /// When a route without times starts.
    static let defaultStart = RFC3339.parse("2025-01-06T08:00:00Z")!

    static let formats = ["nmea", "gpx", "csv", "gpsd"]

    // MARK: Same seed, same bytes

    @Test(
        "same seed and arguments, same bytes, with noise, dropout, reorder and duplicates; another seed differs",
        arguments: formats)
    func repeatable(format: String) throws {
        let folder = temporaryDirectory("repeat-gen-seed")
        let noisy = [
            "--via", Self.walk, "--environment", "urban", "--dropout", "0.1", "--reorder", "5s", "--duplicates", "0.1",
            "--format", format,
        ]
        func generate(_ name: String, seed: String) throws -> Data {
            let path = "\(folder)/\(name).\(format)"
            let result = try RepeatSimBinary.run(["generate"] + noisy + ["--seed", seed, "--out", path])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let first = try generate("a", seed: "42")
        let second = try generate("b", seed: "42")
        let other = try generate("c", seed: "43")
        #expect(first.count > 10_000)
        #expect(first == second)
        #expect(first != other)

        // The artefacts are really there: times missing, repeated, and going back.
        let times = try decode("\(folder)/a.\(format)").map(\.time)
        #expect(Set(times).count < 1001, "dropout: \(Set(times).count) times of 1001")
        #expect(zip(times, times.dropFirst()).contains { $0 > $1 }, "reordered")
        if format == "nmea" {
            // A repeated epoch is one epoch to a decoder: count the sentences.
            let epochs = String(decoding: first, as: UTF8.self).components(separatedBy: "$GPRMC").count - 1
            #expect(epochs > Set(times).count, "duplicates")
        } else {
            #expect(times.count > Set(times).count, "duplicates")
        }
    }

    @Test("a simulation that would run past 2262 (a late --start, a crawl, --days without end) is refused, not trapped")
    func pastTheLastTime() throws {
        let routine = RepositoryPaths.track("simulate/routine.json")
        let via = ["--via", "52.52,13.40;52.53,13.41"]
        for arguments in [
            via + ["--start", "2262-04-11T23:47:16Z"], via + ["--speed", "0.000000001"],
            ["--itinerary", routine, "--days", "9223372036854775807"],
            ["--itinerary", routine, "--start", "2262-01-01T00:00:00Z", "--days", "200"],
            via + ["--start", "2240-01-01T00:00:00Z", "--cold-start", "1000000000s"],
            via + ["--gap", "2262-01-01T00:00:00Z,1000000000s"],
        ] {
            let result = try RepeatSimBinary.run(["generate"] + arguments + ["--format", "csv", "--out", "-"])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("the simulation would run past 2262-04-10"), "\(arguments): \(result.stderr)")
        }
        let folder = temporaryDirectory("repeat-late-scenario")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = folder + "/late.json"
        try #"{"itinerary": "\#(routine)", "days": 1e9, "interval": "-5s"}"#.write(
            toFile: scenario, atomically: true, encoding: .utf8)
        let scored = try RepeatSimBinary.run(["evaluate", "--scenario", scenario, "--runs", "1"])
        #expect(scored.status == 1, "\(scored.stderr)")
        #expect(
            scored.stderr.contains("'-5s' is negative: a duration is 0 or more"),
            "a value with a dash is the key's: \(scored.stderr)")
    }

    // MARK: Round trip

    @Test("--via points south of the equator and west of Greenwich are its value, not a flag")
    func southernVia() throws {
        let feed = try RepeatSimBinary.run([
            "generate", "--via", "-33.86,-151.2;-33.87,-151.21", "--environment", "none", "--format", "csv", "--out", "-",
        ])
        #expect(feed.status == 0, "\(feed.stderr)")
        let first = feed.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(first.contains(",-33.860000000,-151.200000000,"), "\(feed.stdout.prefix(200))")
    }

    @Test("--talker takes GN or gn; another talker is refused with the two it takes")
    func talkerInAnyCase() throws {
        for talker in ["GN", "gn"] {
            let feed = try RepeatSimBinary.run(["generate", "--via", Self.walk, "--format", "nmea", "--talker", talker])
            #expect(feed.status == 0, "\(feed.stderr)")
            #expect(feed.stdout.hasPrefix("$GNRMC,"), "\(feed.stdout.prefix(80))")
        }
        let other = try RepeatSimBinary.run(["generate", "--via", Self.walk, "--format", "nmea", "--talker", "GL"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("Please provide one of 'GP' and 'GN'"), "\(other.stderr)")
    }

    @Test("--environment none: decoding the feed gives the truth within 1 cm, the times exactly", arguments: formats)
    func roundTrip(format: String) throws {
        let folder = temporaryDirectory("repeat-gen-trip")
        let feed = "\(folder)/walk.\(format)"
        let truth = "\(folder)/truth.csv"
        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--interval", "10s", "--out", feed, "--truth", truth,
        ])
        #expect(result.status == 0, "\(result.stderr)")

        let length = Geodesy.distance(Self.walkStart, Self.walkEnd)
        let expected = Int(length / 1.4 / 10) + 1
        #expect(expected == 101)
        let fixes = try decode(feed)
        #expect(fixes.count == expected)
        for (index, fix) in fixes.enumerated() {
            #expect(fix.time == Self.defaultStart.adding(seconds: Double(index) * 10), "fix \(index)")
            if let speed = fix.speed { #expect(abs(speed - 1.4) < 0.01, "speed of fix \(index)") }
        }

        // The truth decodes as a feed with nothing skipped, and holds every feed time.
        let truthDecode = try RepeatSimBinary.run(["decode", truth, "--json"])
        #expect(truthDecode.status == 0)
        #expect(truthDecode.stderr.contains(" 0 skipped"), "\(truthDecode.stderr)")
        let truePoints = Dictionary(
            try parseDecoded(truthDecode.stdout).map { ($0.time, $0.coordinate) }, uniquingKeysWith: { first, _ in first })
        #expect(truePoints.count == Int(length / 1.4) + 2, "every second from 0 to 1000 s, and the end")
        for fix in fixes {
            let truePoint = try #require(truePoints[fix.time], "a truth point at \(RFC3339.format(fix.time))")
            #expect(Geodesy.distance(truePoint, fix.coordinate) < 0.01, "at \(RFC3339.format(fix.time))")
        }
        #expect(Geodesy.distance(try #require(truePoints.values.max { $0.latitude < $1.latitude }), Self.walkEnd) < 0.01)
    }

    // MARK: Manifest

    @Test("the manifest: the seed, every setting in force, the counts, and each output's sha256 and size")
    func manifest() throws {
        let folder = temporaryDirectory("repeat-gen-manifest")
        let feed = "\(folder)/walk.csv", truth = "\(folder)/truth.gpx", manifest = "\(folder)/run.json"
        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--seed", "7", "--environment", "suburban", "--noise", "1.5", "--interval", "5s",
            "--dropout", "0.05", "--out", feed, "--truth", truth, "--truth-interval", "2s", "--manifest", manifest,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        #expect(root["seed"] as? Int == 7)
        let parameters = try #require(root["parameters"] as? [String: Any])
        let keys: Set<String> = [
            "arguments", "route", "via", "itinerary", "days", "probe", "keep_times", "speed_m_s", "stop_s", "start", "end",
            "length_m", "devices", "environment", "noise_m", "bias_m", "bias_time_s", "outlier_probability",
            "outlier_distance_m", "accuracy_m", "interval_s", "dropout", "gaps", "cold_start_s", "reorder_s", "duplicates",
            "format", "talker", "truth_interval_s",
        ]
        #expect(Set(parameters.keys) == keys)
        #expect(parameters["via"] as? String == Self.walk)
        #expect(parameters["environment"] as? String == "suburban")
        #expect(parameters["noise_m"] as? Double == 1.5, "the override")
        #expect(parameters["bias_m"] as? Double == 3.5, "the preset's")
        #expect(parameters["bias_time_s"] as? Double == 45)
        #expect(parameters["outlier_probability"] as? Double == 0.002)
        #expect(parameters["outlier_distance_m"] as? Double == 30)
        let accuracy = try #require(parameters["accuracy_m"] as? Double)
        #expect(abs(accuracy - 1.515 * (1.5 * 1.5 + 3.5 * 3.5).squareRoot()) < 0.001)
        #expect(parameters["speed_m_s"] as? Double == 1.4)
        #expect(parameters["interval_s"] as? Double == 5)
        #expect(parameters["dropout"] as? Double == 0.05)
        #expect(parameters["duplicates"] as? Double == 0)
        #expect(parameters["devices"] as? Int == 1)
        #expect(parameters["format"] as? String == "csv")
        #expect(parameters["truth_interval_s"] as? Double == 2)
        #expect(parameters["start"] as? String == "2025-01-06T08:00:00Z")
        let length = try #require(parameters["length_m"] as? Double)
        #expect(abs(length - 1400.5) < 0.01)

        let counts = try #require(root["counts"] as? [String: Any])
        let fixes = try decode(feed)
        #expect(counts["fixes"] as? Int == fixes.count)
        #expect(counts["invalid"] as? Int == 0)
        #expect(counts["devices"] as? Int == 1)
        let truthPoints = try decode(truth).count
        #expect(counts["truth_points"] as? Int == truthPoints)
        #expect(result.stderr.contains("generate: \(fixes.count) fixes (0 invalid) from 1 device, \(truthPoints) truth points"))

        let outputs = try #require(root["outputs"] as? [[String: Any]])
        #expect(outputs.map { $0["role"] as? String } == ["feed", "truth"])
        #expect(outputs.map { $0["path"] as? String } == [feed, truth])
        #expect(outputs.map { $0["format"] as? String } == ["csv", "gpx"])
        for output in outputs {
            let path = try #require(output["path"] as? String)
            let sum = try runProcess("/usr/bin/sha256sum", [path])
            #expect(output["sha256"] as? String == String(sum.stdout.prefix(64)), "\(path)")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(output["bytes"] as? Int == size, "\(path)")
        }
    }

    // MARK: Several devices

    @Test("--devices 3 into one CSV: dev1…dev3, each with its own noise")
    func devicesInOneCSV() throws {
        let feed = temporaryDirectory("repeat-gen-devices") + "/three.csv"
        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--devices", "3", "--format", "csv", "--environment", "urban", "--interval", "10s",
            "--out", feed,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let fixes = try decode(feed)
        let byDevice = Dictionary(grouping: fixes, by: { $0.device ?? "" })
        #expect(byDevice.keys.sorted() == ["dev1", "dev2", "dev3"])
        for (device, its) in byDevice { #expect(its.count == 101, "\(device)") }
        // At every time, three different positions.
        for (time, its) in Dictionary(grouping: fixes, by: \.time) {
            #expect(Set(its.map { "\($0.coordinate.latitude),\($0.coordinate.longitude)" }).count == 3, "\(time)")
        }
    }

    @Test("--devices 2 into one NMEA file is refused, naming --out FOLDER/; --out DIR/ writes DIR/dev1.nmea and DIR/dev2.nmea")
    func devicesIntoNMEA() throws {
        let folder = temporaryDirectory("repeat-gen-folder")
        let refused = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--devices", "2", "--environment", "urban", "--out", folder + "/both.nmea",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--out FOLDER/"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/both.nmea"))

        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--devices", "2", "--environment", "urban", "--interval", "10s",
            "--out", folder + "/feeds/", "--manifest", folder + "/run.json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/feeds").sorted() == ["dev1.nmea", "dev2.nmea"])
        let first = try decode(folder + "/feeds/dev1.nmea")
        let second = try decode(folder + "/feeds/dev2.nmea")
        #expect(first.count == 101)
        #expect(second.count == 101)
        #expect(first.map(\.time) == second.map(\.time))
        #expect(first.map(\.coordinate) != second.map(\.coordinate))
        let manifest = try String(contentsOfFile: folder + "/run.json", encoding: .utf8)
        #expect(manifest.contains(#""path":"\#(folder)/feeds/dev1.nmea""#), "\(manifest)")
        #expect(manifest.contains(#""path":"\#(folder)/feeds/dev2.nmea""#), "\(manifest)")

        // A manifest path that is a folder is named as one.
        let onFolder = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--out", folder + "/walk.csv", "--manifest", folder + "/feeds",
        ])
        #expect(onFolder.status == 1)
        #expect(onFolder.stderr.contains("cannot create \"\(folder)/feeds\": it is a folder"), "\(onFolder.stderr)")
    }

    @Test(
        "--truth FOLDER/: a file per device in the feed's format, the CSV truth's points device by device; evaluate takes the folder"
    )
    func truthFolder() throws {
        let folder = temporaryDirectory("repeat-gen-truth-folder")
        let fleet = ["generate", "--via", Self.walk, "--devices", "3", "--environment", "urban", "--interval", "10s"]
        let inFolders = try RepeatSimBinary.run(
            fleet + ["--out", folder + "/feeds/", "--truth", folder + "/truth/", "--manifest", folder + "/run.json"])
        #expect(inFolders.status == 0, "\(inFolders.stderr)")
        let inOneFile = try RepeatSimBinary.run(fleet + ["--out", folder + "/again/", "--truth", folder + "/truth.csv"])
        #expect(inOneFile.status == 0, "\(inOneFile.stderr)")

        let names = ["dev1.nmea", "dev2.nmea", "dev3.nmea"]
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/truth").sorted() == names)
        let csv = Dictionary(grouping: try decode(folder + "/truth.csv"), by: { $0.device ?? "" })
        for name in names {
            let points = try decode(folder + "/truth/" + name)
            let expected = try #require(csv[String(name.prefix(4))])
            #expect(points.count == expected.count, "\(name)")
            for (point, truth) in zip(points, expected) {
                // NMEA writes hundredths of a second and 1e-6 minutes.
                #expect(abs(point.time.secondsSince1970 - truth.time.secondsSince1970) <= 0.005, "\(name) \(truth.time)")
                #expect(Geodesy.distance(point.coordinate, truth.coordinate) < 0.01, "\(name) \(truth.time)")
            }
        }
        let manifest = try String(contentsOfFile: folder + "/run.json", encoding: .utf8)
        for name in names {
            #expect(manifest.contains(#"{"role":"truth","path":"\#(folder)/truth/\#(name)""#), "\(manifest)")
        }

        // The walk's middle, which every device's truth crosses.
        let regions = folder + "/middle.csv"
        try "id,lat,lon,radius\nmiddle,\((Self.walkStart.latitude + Self.walkEnd.latitude) / 2),13.40,100\n".write(
            toFile: regions, atomically: true, encoding: .utf8)
        let feeds = names.map { folder + "/feeds/" + $0 }
        let byFolder = try RepeatSimBinary.run(
            ["evaluate"] + feeds + ["--truth", folder + "/truth", "--regions", regions, "--json"])
        let byCSV = try RepeatSimBinary.run(
            ["evaluate"] + feeds + ["--truth", folder + "/truth.csv", "--regions", regions, "--json"])
        #expect(byFolder.status == 0, "\(byFolder.stderr)")
        #expect(byFolder.stderr.contains("3 true entries, 3 true exits"), "\(byFolder.stderr)")
        let scores = try [byFolder, byCSV].map { try #require(jsonLines($0.stdout).first) }
        for kind in ["enter", "exit"] {
            let counts = scores.map { score in ["tp", "fp", "fn"].map { (score[kind] as? [String: Any])?[$0] as? Int } }
            #expect(counts[0] == counts[1] && counts[0] == [3, 0, 0], "\(kind): \(counts)")
        }

        #expect(!byFolder.stderr.contains("warning"), "\(byFolder.stderr)")
        // What `--truth truth/*` gives: the files after the first are FEEDs, and the warning says so.
        let globbed = try RepeatSimBinary.run(
            ["evaluate"] + feeds + ["--truth"] + names.map { folder + "/truth/" + $0 } + ["--regions", regions])
        #expect(
            globbed.stderr.contains(
                "warning: \(folder)/truth/dev2.nmea, \(folder)/truth/dev3.nmea lie beside --truth \(folder)/truth/dev1.nmea, "
                    + "and are read as FEEDs: --truth takes one file each time it is given, so a shell's \(folder)/truth/* "
                    + "gives it the first alone; give the folder instead: --truth \(folder)/truth"), "\(globbed.stderr)")

        let empty = temporaryDirectory("repeat-gen-truth-empty")
        let nothing = try RepeatSimBinary.run(["evaluate"] + feeds + ["--truth", empty, "--regions", regions])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.hasPrefix("Error: --truth \(empty) is a folder with no file in it"), "\(nothing.stderr)")
    }

    // MARK: Errors

    /// Files the error cases read: routes of one point.
    static let onePoint: String = {
        let folder = temporaryDirectory("repeat-gen-errors")
        try? "lat,lon\n52.52,13.40\n".write(toFile: folder + "/one.csv", atomically: true, encoding: .utf8)
        try? """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><trkseg><trkpt lat="52.52" lon="13.40"><time>2025-01-06T08:00:00Z</time></trkpt></trkseg></trk>
        </gpx>
        """.write(toFile: folder + "/one.gpx", atomically: true, encoding: .utf8)
        return folder
    }()

    @Test(
        "a bad argument exits 1 naming the flag, without a crash",
        arguments: [
            (
                ["--via", walk, "--environment", "moon"],
                ["--environment", "'moon'", "open-sky", "suburban", "urban", "wifi", "cell"]
            ),
            (["one.csv"], ["one.csv decodes to 1 point; a route needs at least two"]),
            (["one.gpx"], ["one.gpx decodes to 1 point; a route needs at least two"]),
            (["--via", walk, "--interval", "0"], ["--interval must be more than 0 seconds"]),
            (["--via", walk, "--dropout", "2"], ["--dropout must be a probability from 0 to 1"]),
            (["--via", walk, "--outliers", "2:50"], ["--outliers p must be from 0 to 1"]),
            (["--via", walk, "--noise=-1"], ["--noise must be from 0 to 10 000 000 metres"]),
            (["--via", walk, "--bias", "1e308"], ["--bias must be from 0 to 10 000 000 metres"]),
            (["--via", walk, "--devices", String(Int.max)], ["--devices must be at most 1 000 000"]),
            (["--via", walk, "--gap", "nonsense"], ["--gap takes START,DURATION", "'nonsense'"]),
            (["--via", walk, "--keep-times"], ["--keep-times follows a ROUTE file's own times; --via points have none"]),
            ([], ["give a ROUTE file, --via"]),
            (["one.csv", "--via", walk], ["give one of a ROUTE file, --via, --itinerary or --probe"]),
            (["--via", "52.52,13.40"], ["--via", "at least two"]),
        ])
    func refused(arguments: [String], messages: [String]) throws {
        let folder = Self.onePoint
        let out = folder + "/\(UUID().uuidString).nmea"
        let located = arguments.map { $0.hasPrefix("one.") ? folder + "/" + $0 : $0 }
        let result = try RepeatSimBinary.run(["generate"] + located + ["--out", out])
        #expect(result.status == 1, "\(result.stderr)")
        for message in messages { #expect(result.stderr.contains(message), "\(result.stderr)") }
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
    }

    @Test("--start and --gap take a time without its seconds, as a person writes it, at any offset")
    func timesWithoutSeconds() throws {
        let feed = temporaryDirectory("repeat-gen-minutes") + "/walk.csv"
        let result = try RepeatSimBinary.run([
            "generate", "--via", Self.walk, "--interval", "10s", "--start", "2025-03-01T09:00Z",
            "--gap", "2025-03-01T10:05+01:00,60s", "--out", feed,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let times = try decode(feed).map { RFC3339.format($0.time) }
        #expect(times.first == "2025-03-01T09:00:00Z")
        #expect(times.contains("2025-03-01T09:04:50Z") && times.contains("2025-03-01T09:06:00Z"))
        #expect(!times.contains { ("2025-03-01T09:05:00Z"..."2025-03-01T09:05:50Z").contains($0) }, "the tunnel: \(times)")
        #expect(times.count == 101 - 6)
    }

    // MARK: Route files

    @Test("a GPX with only <rte>/<rtept> is followed through each route point")
    func routePoints() throws {
        let folder = temporaryDirectory("repeat-gen-rte")
        let corners = [
            Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.525, longitude: 13.40),
            Coordinate(latitude: 52.525, longitude: 13.41),
        ]
        let points = corners.map { #"<rtept lat="\#($0.latitude)" lon="\#($0.longitude)"><name>p</name></rtept>"# }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <rte><name>errand</name>\(points.joined())</rte>
        </gpx>
        """.write(toFile: folder + "/route.gpx", atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run([
            "generate", folder + "/route.gpx", "--interval", "30s", "--out", folder + "/feed.csv", "--truth",
            folder + "/truth.csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let legs = [Geodesy.distance(corners[0], corners[1]), Geodesy.distance(corners[1], corners[2])]
        let fixes = try decode(folder + "/feed.csv")
        #expect(fixes.count == Int((legs[0] + legs[1]) / 1.4 / 30) + 1)
        #expect(fixes.first?.coordinate == corners[0])
        // The corner is a vertex of the truth, at the time the first leg takes.
        let truth = try decode(folder + "/truth.csv")
        let corner = try #require(truth.first { Geodesy.distance($0.coordinate, corners[1]) < 0.01 })
        #expect(abs(corner.time.secondsSince1970 - Self.defaultStart.adding(seconds: legs[0] / 1.4).secondsSince1970) < 0.001)
        #expect(Geodesy.distance(try #require(truth.last).coordinate, corners[2]) < 0.01)
    }

    @Test("--keep-times follows a recording on its own clock: its times, and with environment none its positions")
    func keepTimes() throws {
        let track = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")
        let feed = temporaryDirectory("repeat-gen-keep") + "/car.csv"
        let result = try RepeatSimBinary.run(["generate", track, "--keep-times", "--out", feed])
        #expect(result.status == 0, "\(result.stderr)")
        let recorded = try decode(track)
        let fixes = try decode(feed)
        #expect(fixes.first?.time == recorded.first?.time)
        #expect(RFC3339.format(try #require(fixes.first).time) == "2020-12-18T06:15:50Z")
        #expect(fixes.last?.time == recorded.last?.time)
        let span = try #require(recorded.last).time.secondsSince1970 - (try #require(recorded.first).time.secondsSince1970)
        #expect(fixes.count == Int(span) + 1, "one a second from the first recorded time to the last")
        let generated = Dictionary(fixes.map { ($0.time, $0.coordinate) }, uniquingKeysWith: { first, _ in first })
        let times = Dictionary(grouping: recorded, by: \.time)
        for (time, points) in times where points.count == 1 {
            let at = try #require(generated[time], "a fix at \(RFC3339.format(time))")
            #expect(Geodesy.distance(at, points[0].coordinate) < 0.01, "at \(RFC3339.format(time))")
        }
        #expect(times.count > 90)
    }

    // MARK: Itinerary

    @Test("an itinerary whose weekday visits are out of reach names those it skips")
    func itineraryOutOfReach() throws {
        let folder = temporaryDirectory("repeat-gen-far")
        try """
        {"timeZone": "Europe/Berlin", "home": "Home", "profile": "car",
         "places": [{"name": "Home", "lat": 52.5096, "lon": 13.4250}, {"name": "Madrid", "lat": 40.4168, "lon": -3.7038}],
         "visits": [{"place": "Madrid", "weekdays": ["mon", "tue", "wed", "thu", "fri"], "from": "09:00", "to": "17:00"}]}
        """.write(toFile: folder + "/far.json", atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run([
            "generate", "--itinerary", folder + "/far.json", "--days", "7", "--interval", "60s", "--out", folder + "/far.csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "far.json: 1 weekday visit was skipped, out of reach before their end: Madrid at 2025-01-06 09:00 +01:00 "
                    + "(are the places that far apart, or the profile that slow?)"), "\(result.stderr)")
        // Through standard input, read once by the simulation: the run stands, without the word.
        let piped = try RepeatSimBinary.run(
            ["generate", "--itinerary", "-", "--days", "7", "--interval", "60s", "--out", folder + "/piped.csv"],
            input: try String(contentsOfFile: folder + "/far.json", encoding: .utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/piped.csv"))
                == Data(contentsOf: URL(fileURLWithPath: folder + "/far.csv")))
    }

    @Test("--itinerary over 30 days: the every-10d-20d place entered as often as the itinerary visits it; home at night")
    func itinerary() throws {
        let folder = temporaryDirectory("repeat-gen-itinerary")
        let json = """
            {"timeZone": "Europe/Berlin", "home": "Home", "profile": "bike",
             "places": [{"name": "Home", "lat": 52.50, "lon": 13.42},
                        {"name": "Work", "lat": 52.52, "lon": 13.39},
                        {"name": "Pharmacy", "lat": 52.49, "lon": 13.38}],
             "visits": [{"place": "Work", "weekdays": ["mon", "tue", "wed", "thu", "fri"], "from": "09:00", "to": "17:00"},
                        {"place": "Pharmacy", "every": "10d-20d", "stay": "10m"}]}
            """
        try json.write(toFile: folder + "/routine.json", atomically: true, encoding: .utf8)
        try "id,lat,lon,radius\nHome,52.50,13.42,100\nWork,52.52,13.39,100\nPharmacy,52.49,13.38,100\n".write(
            toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        let seed: UInt64 = 5
        let result = try RepeatSimBinary.run([
            "generate", "--itinerary", folder + "/routine.json", "--days", "30", "--interval", "60s", "--seed", "\(seed)",
            "--out", folder + "/feed.csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "every visit is in reach: \(result.stderr)")

        // What the itinerary itself says the person does with this seed.
        let routine = try Itinerary(json: Data(json.utf8))
        let pharmacy = try routine.visits(days: 30, start: Itinerary.CivilDate(year: 2025, month: 1, day: 6), seed: seed)
            .filter { $0.place == "Pharmacy" }
        #expect((2...3).contains(pharmacy.count), "10–20 days apart in 30 days")

        let replay = try RepeatSimBinary.run([
            "replay", folder + "/feed.csv", "--regions", folder + "/places.csv", "--transitions", "--json",
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let entries = try jsonLines(replay.stdout).filter {
            $0["kind"] as? String == "enter" && $0["region"] as? String == "Pharmacy"
        }
        #expect(entries.count == pharmacy.count, "\(entries)")
        for (entry, visit) in zip(entries, pharmacy) {
            let time = try time(entry["time"])
            // The entry is the first fix of the visit: within a minute (and the fence's 100 m) of the arrival.
            let early = visit.arrival.secondsSince1970 - 100 / 4.5
            #expect(time.secondsSince1970 >= early && time.secondsSince1970 <= visit.arrival.secondsSince1970 + 60)
        }

        // Every fix between midnight and 06:00 Berlin time is at home.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let fixes = try decode(folder + "/feed.csv")
        #expect(fixes.count == 30 * 24 * 60 + 1)
        let night = fixes.filter {
            calendar.component(.hour, from: Date(timeIntervalSince1970: $0.time.secondsSince1970)) < 6
        }
        #expect(night.count == 30 * 6 * 60 + 1, "six hours a night, and the closing midnight")
        let home = Coordinate(latitude: 52.50, longitude: 13.42)
        #expect(night.allSatisfy { Geodesy.distance($0.coordinate, home) < 0.01 })
    }

    // MARK: Probe

    @Test("--probe: the truth enters on the inside pass, the on-the-line pass and the park, not on the outside pass")
    func probe() throws {
        let folder = temporaryDirectory("repeat-gen-probe")
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        try "id,lat,lon,radius\nshop,52.52,13.40,100\n".write(toFile: folder + "/shop.csv", atomically: true, encoding: .utf8)
        // σ 4 m (suburban) puts the passes at 92, 100 and 108 m from the centre;
        // the truth is error-free, as --environment none's feed would be.
        let result = try RepeatSimBinary.run([
            "generate", "--probe", folder + "/shop.csv", "--environment", "suburban", "--out", folder + "/feed.csv",
            "--truth", folder + "/truth.csv", "--manifest", folder + "/run.json",
        ])
        #expect(result.status == 0 && !result.stderr.contains("warning"), "\(result.stderr)")
        let sigma = Environment.suburban.errorModel.deviation
        let segments = try Probe(
            regions: [Probe.Region(id: "shop", centre: centre, radius: 100)], sigma: sigma, speed: 1.4, from: Self.defaultStart
        ).segments
        let manifest = try String(contentsOfFile: folder + "/run.json", encoding: .utf8)
        #expect(manifest.contains(#""start":"2025-01-06T08:00:00Z""#))

        // On the line means within a centimetre: a fence 1 cm wider takes in the
        // on-the-line pass and the park, one 1 cm narrower neither.
        #expect(
            try probed(folder + "/truth.csv", centre: centre, radius: 100.01, segments: segments) == [
                .passInside, .passOnLine, .parkOnLine,
            ])
        #expect(try probed(folder + "/truth.csv", centre: centre, radius: 99.99, segments: segments) == [.passInside])
    }

    @Test("a KML track is a route: --keep-times follows its times as it follows the GPX it was written from")
    func kmlRoute() throws {
        let folder = temporaryDirectory("repeat-gen-kml")
        var truths: [[Substring]] = []
        for route in ["places/gpsbabel-visnjan-car-track.kml", "gpx/gpxpy-visnjan-car.gpx"] {
            let result = try RepeatSimBinary.run([
                "generate", RepositoryPaths.track(route), "--keep-times", "--out", folder + "/feed.nmea", "--truth",
                folder + "/truth.csv",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            truths.append(try String(contentsOfFile: folder + "/truth.csv", encoding: .utf8).split(separator: "\n"))
        }
        #expect(truths[0].count == truths[1].count && truths[0].count == 516)
        for (kml, gpx) in zip(truths[0].dropFirst(), truths[1].dropFirst()) {
            let (a, b) = (kml.split(separator: ","), gpx.split(separator: ","))
            #expect(a[0] == b[0])
            #expect(abs(Double(a[1])! - Double(b[1])!) <= 1e-6 && abs(Double(a[2])! - Double(b[2])!) <= 1e-6, "\(kml) \(gpx)")
        }
    }

    @Test("a KML feed and truth: Google Earth's tracks that decode and replay as the CSV of the same seed do")
    func kmlOutputs() throws {
        let folder = temporaryDirectory("repeat-gen-kml-out")
        let route = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")
        let common = [route, "--keep-times", "--environment", "urban", "--seed", "5", "--interval", "2s"]
        for ext in ["kml", "csv"] {
            let result = try RepeatSimBinary.run(
                ["generate"] + common + ["--out", folder + "/feed.\(ext)", "--truth", folder + "/truth.\(ext)"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let feed = try String(contentsOfFile: folder + "/feed.kml", encoding: .utf8)
        #expect(feed.contains("<gx:MultiTrack>") && feed.contains(#"<gx:SimpleArrayData name="hdop">"#))
        // The same fixes, read back from both files.
        for name in ["feed", "truth"] {
            let kml = try RepeatSimBinary.run(["decode", folder + "/\(name).kml", "--json"])
            let csv = try RepeatSimBinary.run(["decode", folder + "/\(name).csv", "--json"])
            #expect(kml.status == 0 && kml.stderr.contains("(kml): "), "\(kml.stderr)")
            #expect(!kml.stdout.isEmpty && kml.stdout == csv.stdout)
        }
        let regions = RepositoryPaths.track("visnjan-errands/places.csv")
        let replays = try ["kml", "csv"].map { ext in
            try RepeatSimBinary.run(["replay", folder + "/feed.\(ext)", "--regions", regions, "--transitions", "--json"])
        }
        #expect(replays[0].status == 0 && replays[0].stdout.contains(#""kind":"enter""#), "\(replays[0].stderr)")
        #expect(replays[0].stdout == replays[1].stdout)
    }

    @Test(
        "a FIT feed, truth and fleet: records that decode as the CSV of the same seed, to FIT's precision; the manifest hashes the rewritten file"
    )
    func fitOutputs() throws {
        let folder = temporaryDirectory("repeat-gen-fit-out")
        let route = RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")
        let common = [route, "--keep-times", "--environment", "urban", "--seed", "5", "--interval", "2s"]
        for ext in ["fit", "csv"] {
            let result = try RepeatSimBinary.run(
                ["generate"] + common + [
                    "--out", folder + "/feed.\(ext)", "--truth", folder + "/truth.\(ext)", "--manifest", folder + "/\(ext).json",
                ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        func lines(_ path: String) throws -> [[String: Any]] {
            let result = try RepeatSimBinary.run(["decode", path, "--json"])
            #expect(result.status == 0 && !result.stderr.contains("skipped (") && result.stderr.contains(", 0 skipped"))
            return try result.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        for name in ["feed", "truth"] {
            let fit = try lines(folder + "/\(name).fit")
            let csv = try lines(folder + "/\(name).csv")
            try #require(!fit.isEmpty && fit.count == csv.count)
            for (a, b) in zip(fit, csv) {
                // Whole seconds, and positions to a semicircle (8.4e-8°).
                #expect((a["time"] as? String)?.prefix(19) == (b["time"] as? String)?.prefix(19))
                #expect(abs((a["lat"] as! Double) - (b["lat"] as! Double)) < 1e-7)
                #expect(abs((a["lon"] as! Double) - (b["lon"] as! Double)) < 1e-7)
            }
        }
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/fit.json"))) as? [String: Any]
        )
        let outputs = try #require(manifest["outputs"] as? [[String: Any]])
        #expect(outputs.count == 2)
        for output in outputs {
            let path = try #require(output["path"] as? String)
            let sum = try runProcess("/usr/bin/sha256sum", [path])
            #expect(output["sha256"] as? String == String(sum.stdout.prefix(64)), "the file as rewritten: \(path)")
        }
        let fleet = try RepeatSimBinary.run(
            [
                "generate", "--via", "52.5200,13.4050;52.5163,13.3777", "--devices", "3", "--out", folder + "/fleet/", "--format",
                "fit",
            ])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        for device in ["dev1", "dev2", "dev3"] {
            let decoded = try RepeatSimBinary.run(["decode", folder + "/fleet/\(device).fit"])
            #expect(decoded.status == 0 && decoded.stderr.contains("(fit): ") && decoded.stderr.contains(", 0 skipped"))
        }
    }

    @Test(
        "FIT to a standard output sent to a file (> walk.fit) is the --out file's bytes, from where the file's offset stood, and the manifest hashes it; appended to (>>), it is refused"
    )
    func fitToStandardOutputFile() throws {
        let folder = temporaryDirectory("repeat-gen-fit-stdout")
        let arguments = ["generate", "--via", "52.5200,13.4050;52.5163,13.3777", "--environment", "urban", "--seed", "7"]
        let viaOut = try RepeatSimBinary.run(arguments + ["--out", folder + "/out.fit"])
        #expect(viaOut.status == 0, "\(viaOut.stderr)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: folder + "/out.fit"))
        try #require(expected.count > 1_000)

        /// Runs `generate … --format fit --manifest M` with standard output
        /// the file at `path` opened with `flags`, at its end.
        func generate(into path: String, flags: Int32) throws -> (status: Int32, stderr: String, manifest: String) {
            let descriptor = open(path, O_WRONLY | O_CREAT | flags, 0o644)
            try #require(descriptor >= 0)
            lseek(descriptor, 0, SEEK_END)
            let manifest = path + ".json"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: RepeatSimBinary.path)
            process.arguments = arguments + ["--format", "fit", "--manifest", manifest]
            process.standardOutput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            let stderr = Pipe.closedOnExec()
            process.standardError = stderr
            try process.run()
            let diagnostics = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: diagnostics, as: UTF8.self), manifest)
        }

        // > walk.fit: the same bytes, and the manifest's SHA-256 is the file's.
        let fresh = try generate(into: folder + "/fresh.fit", flags: O_TRUNC)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/fresh.fit")) == expected)
        let manifest = try String(contentsOfFile: fresh.manifest, encoding: .utf8)
        let sum = try runProcess("/usr/bin/sha256sum", [folder + "/out.fit"])
        #expect(manifest.contains("\"sha256\":\"\(sum.stdout.prefix(64))\""), "\(manifest)")

        // { printf …; repeat-sim generate …; } > f: the header is written over
        // the start of the FIT data, after what the file held.
        let prefix = Data("written before\n".utf8)
        try prefix.write(to: URL(fileURLWithPath: folder + "/after.fit"))
        let after = try generate(into: folder + "/after.fit", flags: 0)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/after.fit")) == prefix + expected)

        // >> walk.fit: every write goes to the end, the header's too.
        let appended = try generate(into: folder + "/appended.fit", flags: O_APPEND)
        #expect(appended.status == 1)
        #expect(
            appended.stderr.contains("standard output is appended to (>>)")
                && appended.stderr.contains("or send standard output to a file (> walk.fit)"), "\(appended.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/appended.fit")).isEmpty)
    }

    @Test(
        "KML and FIT are refused where they cannot be written (several devices in one file, a --pty, FIT to a pipe), TCX everywhere; several devices' truth needs a device column or a folder"
    )
    func kmlRefusals() throws {
        let folder = temporaryDirectory("repeat-gen-kml-refused")
        let via = ["--via", "52.5200,13.4050;52.5163,13.3777"]
        let cases: [([String], String)] = [
            (["--devices", "2", "--out", folder + "/fleet.kml"], "2 devices in kml need --out FOLDER/"),
            (
                ["--devices", "2", "--out", folder + "/fleet/", "--truth", folder + "/truth.kml"],
                "2 devices' truth in one KML file would not say whose each point is: give --truth FOLDER/ (a file per device) "
                    + "or a .csv or .gpsd file"
            ),
            (
                ["--devices", "2", "--out", folder + "/fleet/", "--truth", folder + "/truth.gpx"],
                "2 devices' truth in one GPX file would not say whose each point is"
            ),
            (
                ["--devices", "2", "--out", folder + "/fleet/", "--truth", folder + "/truth.nmea"],
                "2 devices' truth in one NMEA file would not say whose each point is"
            ),
            (
                ["--devices", "2", "--out", folder + "/fleet/", "--truth", folder + "/./fleet/"],
                "is the feed's folder, where the truth's files would take the feeds' names"
            ),
            (["--pty", folder + "/gps", "--format", "kml"], "--pty takes nmea, gpx, csv or gpsd"),
            (["--out", folder + "/walk.tcx"], "TCX is read, not written"),
            (["--format", "tcx"], "TCX is read, not written"),
            (["--out", folder + "/walk.gpx", "--truth", folder + "/truth.tcx"], "TCX is read, not written"),
            (["--format", "fit"], "give --out FILE.fit or --out FOLDER/"),
            (
                ["--pty", folder + "/gps", "--format", "fit"],
                "is written last, into the file: --pty takes nmea, gpx, csv or gpsd"
            ),
            (["--devices", "2", "--out", folder + "/fleet.fit"], "2 devices in fit need --out FOLDER/"),
            (
                ["--devices", "2", "--out", folder + "/fleet/", "--truth", folder + "/truth.fit"],
                "2 devices' truth in one FIT file would not say whose each point is"
            ),
        ]
        for (arguments, message) in cases {
            let result = try RepeatSimBinary.run(["generate"] + via + arguments)
            #expect(result.status == 1 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let fleet = try RepeatSimBinary.run(
            ["generate"] + via + ["--devices", "2", "--out", folder + "/fleet/", "--format", "kml"])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/fleet").sorted() == ["dev1.kml", "dev2.kml"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/walk.tcx"), "nothing written")
        let bench = try RepeatSimBinary.run(["bench", "--generate", "100", "--format", "tcx"])
        #expect(
            bench.status == 1 && bench.stderr.contains("--generate writes nmea, gpx, csv, gpsd, kml or fit; tcx is read only"))
    }

    @Test("--probe with --environment none: σ 0 puts every pass on the line")
    func probeWithoutError() throws {
        let folder = temporaryDirectory("repeat-gen-probe0")
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        try "id,lat,lon,radius\nshop,52.52,13.40,100\n".write(toFile: folder + "/shop.csv", atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run(["generate", "--probe", folder + "/shop.csv", "--out", folder + "/feed.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        // Which it says, as a run with noise does not (above).
        #expect(result.stderr.contains("warning: --probe without noise (σ 0): its passes inside and outside"))
        let segments = try Probe(
            regions: [Probe.Region(id: "shop", centre: centre, radius: 100)], sigma: 0, speed: 1.4, from: Self.defaultStart
        ).segments
        #expect(try probed(folder + "/feed.csv", centre: centre, radius: 100.01, segments: segments) == Probe.Kind.allCases)
        #expect(try probed(folder + "/feed.csv", centre: centre, radius: 99.99, segments: segments) == [])
    }

    /// The probe cases in which `replay --transitions` of `feed` enters (or
    /// crosses) a circle of `radius` metres at `centre`, in order; every
    /// entry must fall in a case.
    private func probed(_ feed: String, centre: Coordinate, radius: Double, segments: [Probe.Segment]) throws -> [Probe.Kind] {
        let regions = temporaryDirectory("repeat-gen-probe-regions") + "/shop.csv"
        try "id,lat,lon,radius\nshop,\(centre.latitude),\(centre.longitude),\(radius)\n".write(
            toFile: regions, atomically: true, encoding: .utf8)
        let replay = try RepeatSimBinary.run(["replay", feed, "--regions", regions, "--transitions", "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        var kinds: [Probe.Kind] = []
        for line in try jsonLines(replay.stdout) where ["enter", "cross"].contains(line["kind"] as? String) {
            let time = try time(line["time"])
            let segment = try #require(
                segments.first { $0.start.secondsSince1970 - 1 <= time.secondsSince1970 && time <= $0.end.adding(seconds: 1) },
                "an entry at \(RFC3339.format(time)) outside every probe case")
            kinds.append(segment.kind)
        }
        return kinds
    }

    // MARK: Helpers

    /// A decoded fix: what `decode --json` prints.
    struct Decoded {
        var time: Timestamp
        var coordinate: Coordinate
        var speed: Double?
        var device: String?
    }

    /// The fixes of `path` through `repeat-sim decode --json`, with nothing skipped.
    func decode(_ path: String) throws -> [Decoded] {
        let result = try RepeatSimBinary.run(["decode", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(" 0 skipped"), "\(result.stderr)")
        return try parseDecoded(result.stdout)
    }

    func parseDecoded(_ text: String) throws -> [Decoded] {
        try jsonLines(text).map { line in
            Decoded(
                time: try time(line["time"]),
                coordinate: Coordinate(
                    latitude: try #require(line["lat"] as? Double), longitude: try #require(line["lon"] as? Double)),
                speed: line["speed"] as? Double, device: line["device"] as? String)
        }
    }

    /// A JSON value that must be an RFC 3339 time.
    func time(_ value: Any?) throws -> Timestamp {
        let text = try #require(value as? String)
        return try #require(RFC3339.parse(text), "'\(text)' is not an RFC 3339 time")
    }

}
