import ArgumentParser
import Foundation
import Pipeline

/// The options of `bench --feed`: the user's workload, the runs, and the
/// gates and outputs for CI.
struct BenchFeedOptions: ParsableArguments {
    @Option(
        name: .customLong("feed"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Bench the whole pipeline on these feed files (with --regions and/or --tasks).", valueName: "file"))
    var feeds: [String] = []

    @Option(help: ArgumentHelp("With --feed: the tasks file (JSON), as for replay.", valueName: "file"))
    var tasks: String?

    @Option(
        help: ArgumentHelp("With --feed: decode and pipeline runs each (a million at most); the fastest counts.", valueName: "n"))
    var runs = 3

    @Option(
        help: ArgumentHelp(
            "With --feed: a condition on a figure, e.g. 'fixes_per_s>=1e6' or 'index_vs_bruteforce>=50'; exit 3 when it fails.",
            valueName: "condition"))
    var expect: [String] = []

    @Option(help: ArgumentHelp("With --feed: also write the JSON report to this file, as a baseline.", valueName: "file.json"))
    var save: String?

    @Option(
        help: ArgumentHelp(
            "With --feed: compare the load-independent figures and the ratios with a saved report; exit 3 on a regression.",
            valueName: "file.json"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "With --baseline: how much worse a gated figure may be, in percent.", valueName: "percent"))
    var maxRegression = "10%"

    @Option(
        help: ArgumentHelp(
            "With --feed: worker threads of the pipeline runs, as replay --jobs (1: one thread). "
                + "(default: the number of cores)",
            valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "With --feed: time what `replay --shard I/N` does on one node of a job array: its feeds decoded, "
                + "only shard I's devices through the per-device stages (reminders are the merge's).",
            valueName: "I/N"),
        transform: ShardChoice.parse)
    var shard: ShardChoice?

    @Flag(help: "With --feed: print a Markdown table (for $GITHUB_STEP_SUMMARY) instead of text.")
    var markdown = false

    /// The `--expect` conditions.
    /// - Throws: a `ValidationError` naming the expectation.
    func expectations() throws -> [BenchExpectation] {
        try expect.map { text throws -> BenchExpectation in
            do { return try BenchExpectation(parsing: text, names: FeedBench.metricNames) } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// `--max-regression` as a fraction (`10%` or `10`: 0.1), `nil` when unreadable.
    var maxRegressionFraction: Double? {
        let digits = maxRegression.hasSuffix("%") ? String(maxRegression.dropLast()) : maxRegression
        guard let percent = Double(digits.trimmingCharacters(in: .whitespaces)), percent >= 0, percent.isFinite else {
            return nil
        }
        return percent / 100
    }

    /// The flags given that only `--feed` reads.
    var feedOnlyFlags: [String] {
        var flags: [String] = []
        if tasks != nil { flags.append("--tasks") }
        if !expect.isEmpty { flags.append("--expect") }
        if save != nil { flags.append("--save") }
        if baseline != nil { flags.append("--baseline") }
        if markdown { flags.append("--markdown") }
        if jobs != nil { flags.append("--jobs") }
        if shard != nil { flags.append("--shard") }
        return flags
    }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if feeds.isEmpty, let flag = feedOnlyFlags.first { found.append("\(flag) needs --feed FILE") }
        if feeds.contains("-") { found.append("--feed reads files; standard input cannot be read several times") }
        if runs < 1 { found.append("--runs must be at least 1") }
        // Counting its steps (two a run) overflowed at 2^62 runs.
        if runs > 1_000_000 { found.append("--runs must be at most 1 000 000") }
        if let jobs, !(1...RunSettings.maximumJobs).contains(jobs) {
            found.append("--jobs must be from 1 to \(RunSettings.maximumJobs)")
        }
        if maxRegressionFraction == nil {
            found.append("--max-regression '\(maxRegression)' is not a percentage like 10% or 2.5")
        }
        do { _ = try expectations() } catch { found.append("\(error)") }
        return found
    }
}
