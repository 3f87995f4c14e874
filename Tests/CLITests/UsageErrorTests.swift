import Foundation
import TestSupport
import Testing

/// Usage errors name what is wrong and show the usage of the command the
/// user typed, whether argument-parser or the command itself found them.
@Suite("usage errors")
struct UsageErrorTests {
    @Test("a misspelt flag gets a 'did you mean' and the subcommand's usage")
    func misspeltFlag() throws {
        let result = try RepeatSimBinary.run(["replay", "walk.gpx", "--tasks", "tasks.json", "--transitons"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Did you mean '--transitions'?"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: repeat-sim replay"), "\(result.stderr)")
    }

    @Test("a misspelt flag is named even when the flag it was meant to be is required")
    func misspeltRequiredFlag() throws {
        let replay = try RepeatSimBinary.run(["replay", "walk.gpx", "--regionz", "places.csv"])
        #expect(replay.status == 1)
        #expect(replay.stderr.hasPrefix("Error: Unknown option '--regionz'. Did you mean '--regions'?"), "\(replay.stderr)")
        let add = try RepeatSimBinary.run(["task", "add", "--titel", "Bins", "--every", "1w"])
        #expect(add.stderr.hasPrefix("Error: Unknown option '--titel'. Did you mean '--title'?"), "\(add.stderr)")
        #expect(add.stderr.contains("Usage: repeat-sim task add"), "\(add.stderr)")
        let far = try RepeatSimBinary.run(["replay", "walk.gpx", "--frobnicate"])
        #expect(far.stderr.hasPrefix("Error: Unknown option '--frobnicate'.\n"), "\(far.stderr)")
        // A flag that the command's help only speaks of (merge's shows replay's --json).
        let merge = try RepeatSimBinary.run(["merge", "--json", "part-0.jsonl"])
        #expect(merge.stderr.hasPrefix("Error: Unknown option '--json'.\n"), "\(merge.stderr)")
    }

    @Test("a short flag the command lacks is named before the problems it makes (here a ROUTE and an --itinerary)")
    func unknownShortFlag() throws {
        let generate = try RepeatSimBinary.run(["generate", "--itinerary", "routine.json", "-o", "out.nmea"])
        #expect(generate.status == 1)
        #expect(
            generate.stderr.hasPrefix("Error: Unknown option '-o'. Did you mean '--out' or '--outliers'?\n"), "\(generate.stderr)"
        )
        #expect(generate.stderr.contains("Usage: repeat-sim generate"), "\(generate.stderr)")
        // A letter that begins a few long flags gets them, one that begins many
        // no guess; a negative number is a value, and -h is help.
        let decode = try RepeatSimBinary.run(["decode", "walk.gpx", "-j"])
        #expect(decode.stderr.hasPrefix("Error: Unknown option '-j'. Did you mean '--json'?\n"), "\(decode.stderr)")
        let replay = try RepeatSimBinary.run(["replay", "walk.gpx", "-r", "places.csv"])
        #expect(replay.stderr.hasPrefix("Error: Unknown option '-r'.\n"), "\(replay.stderr)")
        let via = try RepeatSimBinary.run(["generate", "--via", "-33.86,151.2;-33.87,151.21", "--out", "-"])
        #expect(!via.stderr.contains("Unknown option"), "\(via.stderr)")
        let help = try RepeatSimBinary.run(["generate", "-h"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: repeat-sim generate"))
    }

    @Test("a negative value, which argument-parser takes for a flag, is named as one; after '=' the value says so")
    func negativeValue() throws {
        let generate = try RepeatSimBinary.run(["generate", "--via", "52.52,13.40;52.53,13.41", "--stop", "-1s"])
        #expect(generate.status == 1)
        #expect(
            generate.stderr.hasPrefix("Error: '--stop' takes no negative value, and '-1s' is one.\nUsage: repeat-sim generate"),
            "\(generate.stderr)")
        let replay = try RepeatSimBinary.run(["replay", "walk.gpx", "--regions", "shops.csv", "--max-accuracy", "-.5"])
        #expect(replay.stderr.hasPrefix("Error: '--max-accuracy' takes no negative value, and '-.5' is one."), "\(replay.stderr)")
        let joined = try RepeatSimBinary.run(["generate", "--via", "52.52,13.40;52.53,13.41", "--stop=-1s"])
        #expect(joined.status == 1)
        #expect(joined.stderr.contains("'-1s' is negative: a duration is 0 or more"), "\(joined.stderr)")
        // A flag with no value at all is still a missing value.
        let missing = try RepeatSimBinary.run(["generate", "--via", "52.52,13.40;52.53,13.41", "--speed"])
        #expect(missing.stderr.hasPrefix("Error: Missing value for '--speed <m/s>'"), "\(missing.stderr)")
    }

    @Test("a misspelt command gets a 'did you mean', at any level")
    func misspeltCommand() throws {
        let root = try RepeatSimBinary.run(["decod", "walk.gpx"])
        #expect(root.status == 1)
        #expect(root.stderr.hasPrefix("Error: unknown command 'decod'. Did you mean 'decode'?"), "\(root.stderr)")
        let task = try RepeatSimBinary.run(["task", "lst"])
        #expect(task.stderr.hasPrefix("Error: unknown command 'lst'. Did you mean 'list'?"), "\(task.stderr)")
        #expect(task.stderr.contains("Usage: repeat-sim task <subcommand>"), "\(task.stderr)")
        let unknown = try RepeatSimBinary.run(["frobnicate"])
        #expect(
            unknown.stderr.contains("The commands: task, place, decode, replay, live, generate, evaluate, bench, merge."),
            "\(unknown.stderr)")
    }

    @Test("an output file that is one of the inputs is refused, and the input is left as it was")
    func outputIsAnInput() throws {
        let folder = temporaryDirectory("repeat-output-input")
        let feed = folder + "/drives.gpx"
        try FileManager.default.copyItem(atPath: RepositoryPaths.track("cat-medicine/drives.gpx"), toPath: feed)
        let before = try Data(contentsOf: URL(fileURLWithPath: feed))
        let tasks = RepositoryPaths.track("cat-medicine/scenario.json")
        let runs = [
            (["replay", feed, "--tasks", tasks, "--geojson", folder + "/./drives.gpx"], "--geojson"),
            (["replay", feed, "--tasks", tasks, "--report", feed], "--report"),
            (["evaluate", feed, "--truth", feed, "--tasks", tasks, "--report", feed], "--report"),
            (["generate", feed, "--profile", "walk", "--out", feed], "--out"),
        ]
        for (arguments, flag) in runs {
            let result = try RepeatSimBinary.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: \(flag) \""), "\(result.stderr)")
            #expect(result.stderr.contains("is an input of this command"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: feed)) == before)
    }

    @Test("replay reads standard input for one input only: a FEED, --regions or --tasks")
    func standardInputOnce() throws {
        let tasks = RepositoryPaths.track("cat-medicine/scenario.json")
        let places = RepositoryPaths.track("visnjan-errands/places.csv")
        for arguments in [
            ["-", "-", "--tasks", tasks], ["-", "--tasks", "-"], ["-", "--regions", "-"],
            ["x.gpx", "--regions", "-", "--tasks", "-"],
        ] {
            let result = try RepeatSimBinary.run(["replay"] + arguments, input: Array("not read\n".utf8))
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.stderr.hasPrefix("Error: standard input (-) can be read only once: for one FEED, --regions or --tasks"),
                "\(arguments): \(result.stderr)")
        }
        // Once is fine, for any of them.
        let regions = try RepeatSimBinary.run(
            ["replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--regions", "-", "--tasks", tasks, "--jobs", "2"],
            input: Array(try Data(contentsOf: URL(fileURLWithPath: places))))
        #expect(regions.status == 0, "\(regions.stderr)")
    }

    @Test("a usage error found while the command runs shows that command's usage, not the root's")
    func runTimeUsageError() throws {
        let folder = temporaryDirectory("repeat-usage")
        let result = try RepeatSimBinary.run(["task", "add", "--title", "!!!", "--every", "2w", "--db", folder + "/t.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: --id is required when the title has no letters or digits"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: repeat-sim task add"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'repeat-sim task add --help'"), "\(result.stderr)")
        #expect(!result.stderr.contains("<subcommand>"), "\(result.stderr)")
    }
}

/// A feed that cannot be read stops the command before it prints anything.
@Suite("unreadable inputs")
struct UnreadableInputTests {
    @Test(
        "a missing feed or a folder stops replay, decode and evaluate before the table and the summary",
        arguments: [
            [
                "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "nothere.gpx", "--tasks",
                RepositoryPaths.track("cat-medicine/scenario.json"),
            ],
            ["decode", RepositoryPaths.tracks],
            [
                "evaluate", RepositoryPaths.track("cat-medicine/drives.gpx"), "--truth", "nothere.csv", "--regions",
                RepositoryPaths.track("visnjan-errands/places.csv"),
            ],
        ])
    func unreadableInputStopsFirst(arguments: [String]) throws {
        let result = try RepeatSimBinary.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("Error: cannot read \"") == true, "\(result.stderr)")
        #expect(
            lines.first?.hasSuffix(": no such file") == true || lines.first?.hasSuffix(": it is a folder, not a file") == true,
            "\(result.stderr)")
    }
}

/// A file that is no feed is an error naming it and what it looks like,
/// never "0 fixes" with exit 0; its bytes are never echoed raw.
@Suite("files that are no feed")
struct NotAFeedFileTests {
    @Test("an OSM file, a JPEG renamed .gpx, an empty file and a KMZ are refused with what they look like")
    func refused() throws {
        let folder = temporaryDirectory("repeat-notafeed")
        let files: [(String, [UInt8], String)] = [
            (
                "route.osm", Array("<?xml version=\"1.0\"?>\n<osm version=\"0.6\"/>\n".utf8),
                "route.osm: not a GPX, KML or TCX file (root element <osm>)"
            ),
            ("photo.gpx", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46], "photo.gpx: a JPEG image, not a feed"),
            ("empty.nmea", [], "empty.nmea: empty file"),
            (
                "ride.kmz", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00],
                "ride.kmz: a zip archive, not a feed (extract the feed from it first; a KMZ is a zipped KML: unzip it, give its doc.kml)"
            ),
        ]
        for (name, bytes, message) in files {
            let path = folder + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            for command in [
                ["decode", path], ["replay", path, "--regions", RepositoryPaths.track("visnjan-errands/places.csv")],
            ] {
                let result = try RepeatSimBinary.run(command)
                #expect(result.status == 1, "\(command)")
                #expect(result.stdout.isEmpty, "\(result.stdout)")
                #expect(result.stderr.contains(message), "\(result.stderr)")
                #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no raw control bytes")
            }
        }
    }
}

/// A --format that the file's first records contradict is obeyed, with a
/// warning that says what the file reads as; one they agree with, or a
/// CSV (a guess the sniffer makes when no record says more), gets none.
@Suite("a --format the file contradicts")
struct ContradictedFormatTests {
    @Test(
        "a GPX read as NMEA, an NMEA log as gpsd JSON or as GPX: warned and decoded as asked",
        arguments: [
            ("gpx/gpxpy-visnjan-car.gpx", "nmea", "reads as GPX, not NMEA as --format says"),
            ("nmea/gpsd-haicom-305N-stationary-then-moving.nmea", "gpsd", "reads as NMEA, not gpsd JSON as --format says"),
            ("nmea/gpsd-haicom-305N-stationary-then-moving.nmea", "gpx", "reads as NMEA, not GPX as --format says"),
        ])
    func warned(track: String, format: String, warning: String) throws {
        let path = RepositoryPaths.track(track)
        let result = try RepeatSimBinary.run(["decode", path, "--format", format, "--json"])
        #expect(result.stderr.contains("warning: \(path) \(warning): it is decoded as asked"), "\(result.stderr)")
        #expect(result.stderr.contains("(\(format)): 0 fixes"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a FIT file is decoded without --format or with --format fit, refused with another, and is no places file")
    func fit() throws {
        let path = RepositoryPaths.track("fit/gpsbabel-visnjan-car.fit")
        for format in [[], ["--format", "fit"]] {
            let result = try RepeatSimBinary.run(["decode", path, "--json"] + format)
            #expect(result.status == 0 && result.stderr.contains("(fit): 104 fixes, 0 skipped"), "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 104)
        }
        let asked = try RepeatSimBinary.run(["decode", path, "--format", "nmea"])
        #expect(asked.status == 1 && asked.stdout.isEmpty)
        #expect(asked.stderr.contains("\(path): a Garmin FIT file (leave --format out, or give --format fit)"), "\(asked.stderr)")
        let places = try RepeatSimBinary.run(["replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), "--regions", path])
        #expect(places.status == 1)
        #expect(places.stderr.contains("\(path):1: a Garmin FIT file: a feed, not places"), "\(places.stderr)")
    }

    @Test("a --format the file agrees with, or a CSV forced to NMEA, gets no warning")
    func notWarned() throws {
        for (track, format) in [("gpx/gpxpy-visnjan-car.gpx", "gpx"), ("csv/gpsbabel-iblue747-saxony.csv", "nmea")] {
            let result = try RepeatSimBinary.run(["decode", RepositoryPaths.track(track), "--format", format, "--json"])
            #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
        }
    }
}

/// A replay that can do nothing useful says which input is the problem.
@Suite("replays that can do nothing")
struct NothingToReplayTests {
    @Test("a track without times points to generate; a regions file without regions is named")
    func saysWhatIsMissing() throws {
        let folder = temporaryDirectory("repeat-nothing")
        let track = folder + "/notimes.gpx"
        try """
        <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
        <trkpt lat="52.5" lon="13.4"/><trkpt lat="52.51" lon="13.41"/></trkseg></trk></gpx>
        """.write(toFile: track, atomically: true, encoding: .utf8)
        let places = RepositoryPaths.track("visnjan-errands/places.csv")
        let untimed = try RepeatSimBinary.run(["replay", track, "--regions", places])
        #expect(untimed.status == 1)
        #expect(untimed.stderr.contains("Error: no fix with a time in \(track)"), "\(untimed.stderr)")
        #expect(untimed.stderr.contains("repeat-sim generate ROUTE --profile walk | repeat-sim replay -"), "\(untimed.stderr)")

        let empty = folder + "/empty.csv"
        try "id,lat,lon,radius\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let noRegions = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), "--regions", empty,
        ])
        #expect(noRegions.status == 1)
        #expect(noRegions.stdout.isEmpty)
        #expect(noRegions.stderr.contains("no usable region in \(empty)"), "\(noRegions.stderr)")

        // A zero-byte file is empty, not unreadable; a tasks file's problem names the file.
        let zero = folder + "/zero.csv"
        _ = FileManager.default.createFile(atPath: zero, contents: Data())
        let zeroRegions = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), "--regions", zero,
        ])
        #expect(zeroRegions.stderr.contains("no usable region in \(zero)"), "\(zeroRegions.stderr)")
        let zeroTasks = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), "--tasks", zero,
        ])
        #expect(zeroTasks.status == 1)
        #expect(zeroTasks.stderr.contains("Error: \(zero): not valid JSON"), "\(zeroTasks.stderr)")
    }
}
