import Foundation
import TestSupport
import Testing

/// `replay --shard I/N` over many feed files (issue 17): a shard leaves
/// out, unread, the NMEA and GPX files named after other shards' devices,
/// reads every CSV (whose rows name devices of any shard), and `merge`
/// still prints the unsharded run's bytes.
@Suite("replay --shard over many files: each shard reads its own")
struct ShardedFeedFilesTests {
    /// Six copies of the Višnjan drive and two of the Haicom NMEA log, each
    /// a device named after its file, and a CSV whose rows are six
    /// walkers' (of every shard) and the device `car-2.gpx`'s (also a
    /// file's), past the errands' places: 9 feeds, the CSV last, after
    /// files that some shards leave out.
    static func feeds(in folder: String, badLineIn badFile: String? = nil) throws -> [String] {
        var paths: [String] = []
        for car in 1...6 {
            paths.append(folder + "/car-\(car).gpx")
            try FileManager.default.copyItem(
                atPath: RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), toPath: paths.last!)
        }
        for rover in 1...2 {
            paths.append(folder + "/rover-\(rover).nmea")
            var log = try String(
                contentsOfFile: RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea"), encoding: .utf8)
            if paths.last!.hasSuffix("/\(badFile ?? "-")") { log += "$GPRMC,not,a,sentence*7F\n" }
            try log.write(toFile: paths.last!, atomically: true, encoding: .utf8)
        }
        var rows = "time,lat,lon,device\n"
        for step in 0..<40 {
            let time = "2020-12-18T06:\(16 + step / 10):\(10 + step % 10 * 5)Z"
            for walker in 1...6 {
                let east = 13.7141 - 0.0002 * Double(walker)
                rows += "\(time),\(45.2725 + 0.00004 * Double(step)),\(east),walker-\(walker)\n"
            }
            rows += "\(time),\(45.2740 - 0.00004 * Double(step)),13.7125,car-2.gpx\n"
        }
        paths.append(folder + "/phones.csv")
        try rows.write(toFile: paths.last!, atomically: true, encoding: .utf8)
        return paths + [
            "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
            "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--json", "--explain", "--transitions",
        ]
    }

    /// How many feeds a shard's summary says it left unread (0 when it
    /// says nothing).
    static func leftUnread(_ stderr: String) -> Int {
        guard let range = stderr.range(of: #"(\d+) of 9 feeds left unread"#, options: .regularExpression) else { return 0 }
        return Int(stderr[range].prefix { $0.isNumber }) ?? -1
    }

    /// The `replay:` summary up to its time.
    static func summary(_ stderr: String) -> String { ParallelReplayTests.summary(stderr) }

    @Test("3 shards on 1, 2 and 3 threads: each NMEA and GPX file read by one shard, the CSV by all; merged, the same bytes")
    func eachFileReadOnce() throws {
        let folder = temporaryDirectory("repeat-shard-files")
        let arguments = try Self.feeds(in: folder)
        let reference = try RepeatSimBinary.run(["replay"] + arguments + ["--jobs", "1"])
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(reference.stdout.contains(#""device":"walker-1""#))
        #expect(reference.stdout.contains(#""device":"car-6.gpx""#))

        var parts: [String] = []
        var reads = 0
        for index in 0..<3 {
            let shard = try RepeatSimBinary.run(
                ["replay"] + arguments + ["--shard", "\(index)/3", "--jobs", "\(index + 1)"])
            #expect(shard.status == 0, "\(shard.stderr)")
            reads += 9 - Self.leftUnread(shard.stderr)
            parts.append(folder + "/part-\(index).jsonl")
            try shard.stdout.write(toFile: parts[index], atomically: true, encoding: .utf8)
        }
        #expect(reads == 8 + 3, "each of the 8 NMEA and GPX files by its device's shard, the CSV by every shard")

        let merged = try RepeatSimBinary.run(["merge"] + parts.reversed())
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == reference.stdout)
        #expect(Self.summary(merged.stderr) == Self.summary(reference.stderr))
    }

    @Test("a shard's lines are the same bytes at --jobs 1 and 4 when it leaves files out")
    func sameLinesWhateverTheJobs() throws {
        let folder = temporaryDirectory("repeat-shard-files-jobs")
        let arguments = try Self.feeds(in: folder)
        for index in 0..<2 {
            let single = try RepeatSimBinary.run(["replay"] + arguments + ["--shard", "\(index)/2", "--jobs", "1"])
            let threaded = try RepeatSimBinary.run(["replay"] + arguments + ["--shard", "\(index)/2", "--jobs", "4"])
            #expect(single.status == 0 && threaded.status == 0, "\(single.stderr) \(threaded.stderr)")
            #expect(Self.leftUnread(single.stderr) > 0 && Self.leftUnread(single.stderr) == Self.leftUnread(threaded.stderr))
            let lines = { (text: String) in text.drop { $0 != "\n" } }
            #expect(lines(single.stdout) == lines(threaded.stdout), "shard \(index)/2")
        }
    }

    @Test("a bad line in a file is reported by the one shard that reads it, as the unsharded run reports it")
    func diagnosticsOnce() throws {
        let folder = temporaryDirectory("repeat-shard-files-bad")
        let arguments = try Self.feeds(in: folder, badLineIn: "rover-2.nmea")
        let reference = try RepeatSimBinary.run(["replay"] + arguments)
        // Repeats of a kind are summed up over the run, so only the bad
        // line's own diagnostic is compared.
        let reported = reference.stderr.split(separator: "\n").filter {
            $0.contains("rover-2.nmea:") && $0.contains("badChecksum")
        }
        #expect(!reported.isEmpty, "\(reference.stderr)")
        var shardsReporting = 0
        for index in 0..<4 {
            let shard = try RepeatSimBinary.run(["replay"] + arguments + ["--shard", "\(index)/4"])
            #expect(shard.status == 0)
            let lines = shard.stderr.split(separator: "\n").filter { $0.contains("rover-2.nmea:") && $0.contains("badChecksum") }
            if !lines.isEmpty {
                shardsReporting += 1
                #expect(lines == reported)
            }
        }
        #expect(shardsReporting == 1)
    }

    @Test("under --strict every shard reads every file, to stop where the unsharded run stops")
    func strictReadsEverything() throws {
        let folder = temporaryDirectory("repeat-shard-files-strict")
        let arguments = try Self.feeds(in: folder) + ["--strict"]
        for index in 0..<3 {
            let shard = try RepeatSimBinary.run(["replay"] + arguments + ["--shard", "\(index)/3"])
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(Self.leftUnread(shard.stderr) == 0, "\(shard.stderr)")
        }
    }
}
