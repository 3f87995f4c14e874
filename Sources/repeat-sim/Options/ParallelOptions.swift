import ArgumentParser
import Foundation
import Pipeline

/// How `replay` spreads its work: threads on this machine (`--jobs`) and
/// processes across machines (`--shard`).
struct ParallelOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Worker threads for reading the tasks file and for the per-device stages, with decoding on a thread "
                + "of its own; 1 runs on one thread. "
                + "The output is the same bytes whatever N. (default: the number of cores)",
            valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Take only the devices whose hash falls in shard I of N (I from 0), and write JSON lines that "
                + "`repeat-sim merge` combines, with the other shards', into this run's output without --shard. "
                + "With --jobs above 1 the shard's devices are spread over the worker threads and its feed "
                + "decodes on a thread of its own: the same lines as on one thread.",
            valueName: "I/N"),
        transform: ShardChoice.parse)
    var shard: ShardChoice?

    /// The threads to use.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// What is wrong with the values, as messages naming the flag.
    func problems() -> [String] {
        var found: [String] = []
        if let jobs, jobs < 1 { found.append("--jobs must be at least 1") }
        if let jobs, jobs > RunSettings.maximumJobs {
            found.append("--jobs must be at most \(RunSettings.maximumJobs)")
        }
        return found
    }
}

/// `--shard I/N`.
struct ShardChoice {
    /// The shard, from 0.
    var index: Int
    /// The number of shards.
    var count: Int

    /// Reads `I/N` with 0 ≤ I < N.
    static func parse(_ text: String) throws -> ShardChoice {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (0..<count).contains(index)
        else {
            throw ValidationError(
                "--shard takes I/N with N at least 1 and I from 0 to N-1 (as Slurm's SLURM_ARRAY_TASK_ID and "
                    + "Kubernetes' JOB_COMPLETION_INDEX count), e.g. --shard 0/4; not '\(text)'")
        }
        return ShardChoice(index: index, count: count)
    }
}
