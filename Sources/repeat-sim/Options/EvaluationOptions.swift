import ArgumentParser
import Evaluation
import Foundation
import Pipeline

/// What `evaluate` scores against: truth tracks, labelled events, or a
/// scenario generated in process.
struct TruthOptions: ParsableArguments {
    @Option(
        name: .customLong("truth"),
        help: ArgumentHelp(
            "Where the devices really were: a feed of truth points, or a FOLDER of them (generate --truth FOLDER/); repeatable.",
            valueName: "track"))
    var tracks: [String] = []

    @Option(
        name: .customLong("truth-events"),
        help: ArgumentHelp("Hand-labelled true events instead of --truth (JSON lines or visits CSV).", valueName: "file"))
    var events: String?

    @Option(
        help: ArgumentHelp(
            "Generate the feed and truth in process from a JSON object of generate's flags.", valueName: "file"))
    var scenario: String?

    @Option(help: ArgumentHelp("With --scenario: runs with seeds 1…N, pooled (a million at most).", valueName: "n"))
    var runs: Int?

    /// Puts the files of a `--truth` folder in its place, in name order
    /// (what a shell's `FOLDER/*` gives, which `--truth` would take one at a
    /// time).
    mutating func validate() throws {
        tracks = try tracks.flatMap { path -> [String] in
            guard isFolder(path) else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let files = names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
                .filter { isRegularFile($0) }
            guard !files.isEmpty else { throw ValidationError("--truth \(path) is a folder with no file in it") }
            return files
        }
    }
}

/// `evaluate`'s own flags: the matching window, the sweep, the
/// expectations, the output.
struct EvaluationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How early and how late a detection may be and still match a true event (each a year at most).",
            valueName: "early,late"))
    var window = "30s,10m"

    @Option(
        help: ArgumentHelp(
            "Vary a setting: NAME=V1,V2,… (repeatable; the cross product, the first varying slowest).",
            discussion: """
                Names: hysteresis (metres, or auto), confirm, exit-confirm, dwell (a duration, or off), \
                max-accuracy (metres), monitor-limit (n, or off), cross (on/off), pad (metres added to every \
                circle for detection only), interval (keep a device's fix only this long after its last kept one).
                """,
            valueName: "name=values"))
    var sweep: [String] = []

    @Option(
        help: ArgumentHelp(
            "A condition for CI, e.g. 'enter.recall>=0.95', 'enter.latency_s.p90<=30s', 'false_entries_per_100h<=1' "
                + "(repeatable; exit 3 when it fails, or in a sweep when no setting meets all).",
            valueName: "metric op value"))
    var expect: [String] = []

    @Flag(help: "One JSON object per setting instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("Settings or runs evaluated at once. (default: the number of cores)", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Score only the devices whose name (up to its first dot) hashes into shard I of N (with --scenario, "
                + "the runs n with (n − 1) mod N = I), and write JSON lines that `repeat-sim merge` adds, with the "
                + "other shards', into this run's output without --shard.",
            valueName: "I/N"),
        transform: ShardChoice.parse)
    var shard: ShardChoice?

    @Option(
        help: ArgumentHelp(
            "Also write an HTML page: the verdict, scores against each swept parameter, entry delays, and per region "
                + "where and why the best setting missed or invented events.",
            valueName: "file.html"))
    var report: String?

    /// The matching window.
    func matchWindow() throws -> MatchWindow {
        let parts = window.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let early = try? DurationArgument.parse(parts[0]).seconds,
            let late = try? DurationArgument.parse(parts[1]).seconds
        else { throw ValidationError("--window '\(window)' is not EARLY,LATE durations, e.g. 30s,10m") }
        guard max(early, late) <= MatchWindow.longestSide else {
            throw ValidationError("--window '\(window)': EARLY and LATE must each be at most a year (365d)")
        }
        return MatchWindow(early: early, late: late)
    }

    /// The expectations.
    func expectations() throws -> [Expectation] {
        try expect.map { text throws -> Expectation in
            do { return try Expectation(parsing: text) } catch let error as ExpectationError {
                throw ValidationError(error.description)
            }
        }
    }

    /// One setting per point of the sweep grid, each starting from `base`.
    func settings(base: EvaluationSetting) throws -> [EvaluationSetting] {
        let grid: SweepGrid
        do { grid = try SweepGrid(parsing: sweep) } catch { throw ValidationError(error.description) }
        return try grid.settings.map { assignments in
            var setting = base
            for (name, value) in assignments {
                setting.parameters.append(try SweepValue.apply(name, value, to: &setting))
            }
            return setting
        }
    }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let jobs, jobs < 1 { found.append("--jobs must be at least 1") }
        if shard != nil, report != nil {
            found.append(
                "--report cannot go with --shard: a shard sees only some devices; run without --shard for the report")
        }
        do { _ = try matchWindow() } catch { found.append("\(error)") }
        do { _ = try expectations() } catch { found.append("\(error)") }
        do {
            _ = try settings(base: EvaluationSetting(geofence: .init(), reorderSeconds: 5, monitorLimit: nil))
        } catch { found.append("\(error)") }
        return found
    }
}

/// The values a sweep can give each name.
enum SweepValue {
    /// Sets `name` to `text` in `setting`, and returns it as a parameter.
    /// - Throws: a `ValidationError` naming the sweep and what it takes.
    static func apply(
        _ name: String, _ text: String, to setting: inout EvaluationSetting
    ) throws
        -> EvaluationSetting.Parameter
    {
        func fail(_ expected: String) -> ValidationError {
            ValidationError("--sweep \(name): '\(text)' \(expected)")
        }
        func metres(atLeast lower: Double?) throws -> Double {
            guard let value = Double(text), value.isFinite, lower.map({ value >= $0 }) ?? true else {
                throw fail(lower == nil ? "must be metres" : "must be \(Int(lower!)) or more metres")
            }
            return value
        }
        func count() throws -> Int {
            guard let value = Int(text), value >= 1 else { throw fail("must be a whole number, 1 or more") }
            return value
        }
        func seconds() throws -> Double {
            guard let value = try? DurationArgument.parse(text).seconds else {
                throw fail("must be a duration like 10s, 2m (or a number of seconds)")
            }
            return value
        }
        let off = ["off", "none", "no"].contains(text.lowercased())
        var value = EvaluationSetting.Parameter.Value.number(0)
        switch name {
        case "hysteresis":
            if text.lowercased() == "auto" {
                setting.geofence.hysteresis = nil
                value = .word("auto")
            } else {
                setting.geofence.hysteresis = try metres(atLeast: 0)
                value = .number(setting.geofence.hysteresis!)
            }
        case "confirm":
            setting.geofence.confirm = try count()
            value = .number(Double(setting.geofence.confirm))
        case "exit-confirm":
            setting.geofence.exitConfirm = try count()
            value = .number(Double(setting.geofence.exitConfirm))
        case "dwell":
            setting.geofence.dwell = off ? nil : try seconds()
            value = setting.geofence.dwell.map(EvaluationSetting.Parameter.Value.number) ?? .word("off")
        case "max-accuracy":
            let limit = try metres(atLeast: 0)
            guard limit > 0 else { throw fail("must be a positive number of metres") }
            setting.geofence.maxAccuracy = limit
            value = .number(limit)
        case "monitor-limit":
            setting.monitorLimit = off ? nil : try count()
            value = setting.monitorLimit.map { .number(Double($0)) } ?? .word("off")
        case "cross":
            guard let on = ["on": true, "yes": true, "true": true, "off": false, "no": false, "false": false][text.lowercased()]
            else { throw fail("must be on or off") }
            setting.geofence.reportsCross = on
            value = .word(on ? "on" : "off")
        case "pad":
            setting.padding = try metres(atLeast: nil)
            value = .number(setting.padding)
        case "interval":
            setting.interval = try seconds()
            value = .number(setting.interval)
        default:
            throw fail("cannot be swept")
        }
        return EvaluationSetting.Parameter(name: name, value: value)
    }
}
