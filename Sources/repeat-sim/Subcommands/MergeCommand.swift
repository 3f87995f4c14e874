import ArgumentParser
import Foundation
import Pipeline

/// `repeat-sim merge FILE...`: the shards of a `replay --shard I/N` or
/// `evaluate --shard I/N` run combined into the output of the run without
/// `--shard`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON lines of `replay` or `evaluate --shard I/N` runs into the output of the run without --shard.",
        discussion: """
            Each shard wrote, for its own devices, what the tasks' side of the pipeline
            needs: transitions, arrivals the accuracy gate turned away, dropped fixes,
            and the fixes whose time made a due reminder fall. merge reads every shard's
            file, puts the outcomes back in the order of the feed, and runs the
            recurrence gate and the due scheduler over them once: stdout is the same
            bytes the replay without --shard prints (reminders, --explain and
            --transitions lines, as JSON with --json or as the table), and stderr has
            the summary with every shard's counts added.

            The replay's arguments come from the shards' first lines: its --tasks and
            --regions files are read again, from the directory the shards ran in when
            it exists here, else from this one, so they must be the same files. Give all
            N shards of one run, once each, in any order; they may have run with
            different --jobs.

            An evaluate's shard wrote, per run and setting, the counts of its devices
            (true and false positives, false negatives, visits, fixes ignored), each
            match's latency and each truth device's hours and kilometres. merge adds
            them: stdout is the same bytes the evaluate without --shard prints (the
            rows as JSON with --json or as the table, --expect marks included), stderr
            its summary, and the exit status 3 when the expectations fail.

            A file that is not a shard's, is cut short, belongs to another run, or holds
            a line that no shard writes (a region the run does not have, a negative
            count: an edited or damaged file) stops the merge with its name and line,
            exit 1.

            Examples:
              for i in 0 1 2 3; do
                repeat-sim replay fleet.csv --regions shops.csv --tasks tasks.json \\
                  --json --shard $i/4 > part-$i.jsonl &
              done; wait
              repeat-sim merge part-*.jsonl > reminders.jsonl

              for i in 0 1 2 3; do
                repeat-sim evaluate fleet.csv --truth truth.csv --regions shops.csv \\
                  --sweep confirm=1,2,3 --shard $i/4 > scores-$i.jsonl &
              done; wait
              repeat-sim merge scores-*.jsonl
            """
    )

    @Argument(help: ArgumentHelp("The JSON lines files of every shard of one run.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("give the files of every shard of one run (replay or evaluate --shard I/N > FILE)")
        }
    }

    func run() throws {
        try checkReadable(files)
        let command = try Self.sameCommand(files)
        if command == "evaluate" { return try mergeEvaluation() }
        let readers = try files.map { path in
            do { return try ShardReader(path: path) } catch { throw MergeFailure("\(error)") }
        }
        let header = try Self.checkTogether(readers.map { ($0.path, $0.header) })
        let replay = try Self.command(ReplayCommand.self, of: header, in: readers[0].path)
        // Relative paths on the shards' command line are read from where the shards ran.
        if FileManager.default.fileExists(atPath: header.directory),
            !FileManager.default.changeCurrentDirectoryPath(header.directory)
        {
            throw MergeFailure("\(readers[0].path): cannot enter \(header.directory), where the shards ran")
        }
        let run = try replay.prepare(makingSinks: true)
        defer { leaveToExit(run) }
        let result = try FeedRun(settings: run.settings, stage: .pipeline(run.stages), sinks: run.sinks).run(
            merging: readers, feeds: replay.feeds)
        try replay.report(result)
    }

    /// The command the shard files `paths` share, as their headers name it
    /// (`nil` when the first has none: its reader says why); throws when
    /// two differ, or when a file is a bench report.
    private static func sameCommand(_ paths: [String]) throws -> String? {
        let commands = try paths.map { path in
            let line = EvaluationShardFile.firstLine(of: path)
            let header = line.flatMap(EvaluationShardFile.header(inLine:))
            if header == nil, let line { try refuseBenchReport(line, in: path) }
            return (path: path, command: header?.arguments.first)
        }
        guard let first = commands.first?.command else { return nil }
        if let other = commands.first(where: { $0.command != nil && $0.command != first }) {
            throw MergeFailure(
                "\(other.path) is a shard of \(other.command!) but \(paths[0]) of \(first): shards of different runs")
        }
        return first
    }

    /// Throws when `line`, the first of the file `path`, is a `bench`
    /// report, sharded or not: its figures are one machine's timings,
    /// which add up to no run's.
    private static func refuseBenchReport(_ line: Data, in path: String) throws {
        guard let report = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any],
            report["fixes_per_s"] != nil
        else { return }
        let timings = "a bench's figures are one machine's timings, which merge cannot add into a whole run's"
        guard let shard = report["shard"] as? String else {
            throw MergeFailure(
                "\(path) is a report of `bench`: \(timings); merge takes the lines of replay or evaluate --shard I/N")
        }
        throw MergeFailure(
            "\(path) is a report of `bench --shard \(shard)`: \(timings). Read each shard's report: the job array "
                + "goes at the pace of its slowest shard's fixes_per_s")
    }

    /// The shards of an `evaluate --shard I/N` run added up into its rows.
    private func mergeEvaluation() throws {
        let shards = try files.map { path in
            do { return try EvaluationShardFile(path: path) } catch { throw MergeFailure("\(error)") }
        }
        let header = try Self.checkTogether(shards.map { ($0.path, $0.header) })
        try Self.command(EvaluateCommand.self, of: header, in: shards[0].path).merge(shards)
    }

    /// The shards' command, parsed from `header`'s arguments (read from the
    /// file `path`).
    private static func command<Command: ParsableCommand>(
        _ type: Command.Type, of header: ShardHeader, in path: String
    ) throws -> Command {
        do { return try Command.parse(Array(header.arguments.dropFirst())) } catch {
            throw MergeFailure(
                "\(path): the shard's command line does not parse here (another version?): "
                    + Command.message(for: error))
        }
    }

    /// The header the shards share; throws unless they are every shard of
    /// one run (of one command), once each.
    private static func checkTogether(_ readers: [(path: String, header: ShardHeader)]) throws -> ShardHeader {
        let first = readers[0]
        guard let kind = first.header.arguments.first, ["replay", "evaluate"].contains(kind) else {
            throw MergeFailure("\(first.path): not a replay's or an evaluate's shard")
        }
        let command = withoutShardAndJobs(first.header.arguments)
        var seen: [Int: String] = [:]
        for reader in readers {
            let header = reader.header
            guard header.count == first.header.count else {
                throw MergeFailure(
                    "\(reader.path) is shard \(header.index)/\(header.count) but \(first.path) is one of "
                        + "\(first.header.count): shards of different runs")
            }
            guard withoutShardAndJobs(header.arguments) == command else {
                throw MergeFailure(
                    "\(reader.path) was run with other arguments than \(first.path): shards of different runs\n"
                        + "  \(header.arguments.joined(separator: " "))\n  \(first.header.arguments.joined(separator: " "))")
            }
            if let other = seen[header.index] {
                throw MergeFailure("\(reader.path) and \(other) are both shard \(header.index)/\(header.count)")
            }
            seen[header.index] = reader.path
        }
        let missing = (0..<first.header.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.prefix(10).map { "\($0)/\(first.header.count)" }.joined(separator: ", ")
            throw MergeFailure(
                "shard\(missing.count == 1 ? "" : "s") \(list)\(missing.count > 10 ? ", …" : "") missing: give every "
                    + "shard of the run")
        }
        return first.header
    }

    /// `arguments` without `--shard` and `--jobs` and their values: shards
    /// of one run differ in the one, and may in the other (the output never
    /// depends on it).
    private static func withoutShardAndJobs(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--shard" || argument == "--jobs" {
                skipNext = true
                continue
            }
            if argument.hasPrefix("--shard=") || argument.hasPrefix("--jobs=") { continue }
            result.append(argument)
        }
        return result
    }
}

/// Why shard files could not be merged: a plain error (exit 1).
struct MergeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
