import ArgumentParser
import Evaluation
import Foundation
import Pipeline

/// `evaluate --shard I/N`: one shard's tallies as JSON lines, and their
/// merge (`repeat-sim merge`) into the rows of the run without `--shard`.
extension EvaluateCommand {
    /// Scores this shard's devices (or runs of a scenario) and writes
    /// their tallies as JSON lines on stdout; the expectations wait for
    /// the merge.
    func runShard(
        _ shard: EvaluationShard, runner: EvaluationRunner, scenario: EvaluationScenario?,
        spools: [String: FeedSpool], progress: ProgressBar, started: Date
    ) throws {
        let tallies: [EvaluationRunTally]
        let described: String
        let runs = truth.runs ?? 1
        var scored: String
        if let scenario {
            let mine = (1...runs).filter(shard.holds(run:))
            let settings = runner.settings
            let detail = "\(mine.count) of \(runs) runs × \(settings.count) settings"
            tallies = try runner.tallies(
                runs: mine,
                score: { seed, jobs in
                    let run = try scenario.score(seed: seed, evaluation: runner.evaluation, settings: settings, jobs: jobs)
                    return (run.truth, run.detections)
                },
                progress: { progress.show("evaluate", fraction: $0, detail: detail) })
            described = "\(runs) run\(runs == 1 ? "" : "s") of \(truth.scenario!)"
            scored = mine.isEmpty ? "no run" : "run\(mine.count == 1 ? "" : "s") \(Self.list(mine))"
        } else {
            let feed = try streamedFeed(runner: runner, scoring: runner.evaluation, spools: spools, shard: shard)
            let devices = shard.truthDevices(feed.truth.devices, feedDevices: feed.feedDevices)
            tallies = [
                EvaluationRunTally(
                    run: 1, truth: feed.truth, detections: feed.detections, window: runner.window, devices: devices)
            ]
            described = feed.described
            let count = feed.feedDevices.filter(shard.holds(feedDevice:)).count
            scored = "\(count) feed device\(count == 1 ? "" : "s") and \(devices.count) truth device"
            scored += devices.count == 1 ? "" : "s"
        }
        progress.clear()
        let header = ShardHeader(
            index: shard.index, count: shard.count, arguments: Array(CommandLine.arguments.dropFirst()),
            directory: FileManager.default.currentDirectoryPath)
        let end = EvaluationShardFile.End(described: described, runs: runs, settings: runner.settings.count)
        let lines = EvaluationShardFile.lines(header: header, tallies: tallies, end: end)
        let stdout = ByteWriter.standardOutput()
        for line in lines { stdout.write(line) }
        stdout.flush()
        Console.write(
            "evaluate --shard \(shard.index)/\(shard.count): \(runner.settings.count) setting"
                + "\(runner.settings.count == 1 ? "" : "s") on \(described); this shard's: \(scored); "
                + "\(lines.count) lines for repeat-sim merge; " + ElapsedText.of(Date().timeIntervalSince(started)))
    }

    /// `numbers` for a message: the first few, then how many more.
    private static func list(_ numbers: [Int]) -> String {
        let shown = numbers.prefix(8).map(String.init).joined(separator: ", ")
        return numbers.count > 8 ? "\(shown) and \(numbers.count - 8) more" : shown
    }

    /// The rows of the shards `files` added up, printed as the run without
    /// `--shard` prints them (this command parsed from the shards' command
    /// line); exit 3 as it would.
    func merge(_ files: [EvaluationShardFile]) throws {
        let started = Date()
        let first = files[0]
        for file in files.dropFirst() where file.end != first.end {
            throw MergeFailure(
                "\(file.path) scored \(file.end.described) but \(first.path) \(first.end.described): "
                    + "shards of different runs")
        }
        let window = try evaluation.matchWindow()
        do {
            for file in files { try file.check(window: window) }
            try EvaluationShardFile.checkTotals(files)
        } catch { throw MergeFailure("\(error)") }
        var base = EvaluationSetting(
            geofence: geofence.settings, reorderSeconds: geofence.reorderSeconds, monitorLimit: reminder.monitorLimit)
        base.deviceIdleSeconds = geofence.deviceIdleSeconds
        let settings = try evaluation.settings(base: base)
        guard settings.count == first.end.settings else {
            throw MergeFailure(
                "\(first.path) has \(first.end.settings) settings' tallies, but its command line sweeps "
                    + "\(settings.count) here (another version?)")
        }
        let expectations = try evaluation.expectations()
        let rows = EvaluationRunner.rows(tallies: files.flatMap(\.tallies), runs: first.end.runs, settings: settings)
        printRows(rows, expectations: expectations)
        Console.write(summary(rows, described: first.end.described, elapsed: Date().timeIntervalSince(started)))
        try check(expectations, rows: rows)
    }
}
