import FeedParsing
import GeoCore
import Geofencing

/// `bench --feed`: the user's own feed through the whole pipeline, with the
/// figures a CI gate can trust on a noisy machine.
///
/// In one process and one run it alternates ``runs`` decode-only runs and
/// pipeline runs of the same files (both through ``FeedRun``, as `decode`
/// and `replay` run them) and reports the fastest of each; then it runs the
/// decoder and the stages in lockstep (``StageShare``) for
/// `pipeline_vs_decode`, which holds when the machine's speed drifts because
/// both sides see the same machine from one read to the next. It then times the spatial grid against the brute
/// force on an even sample of the feed's fixes (``IndexComparison``), and
/// counts what does not depend on the load at all: heap allocations
/// (``AllocationCounter``), instructions where `perf_event_open` is
/// allowed (``InstructionCounter``), index candidates per position and
/// bytes per region.
///
/// With a ``shard``, the pipeline runs and the lockstep are what `replay
/// --shard I/N` does on one node of a job array: its feeds decoded (not
/// the NMEA and GPX files of other shards' devices), the shard's devices
/// through the per-device stages, their lines for `repeat-sim
/// merge` made and dropped; the tasks' side, which runs in the merge, is
/// left out.
public struct FeedBench {
    /// The feed files, read in order.
    public var feeds: [String]
    /// How the runs decode (format, `--date`, `--columns`).
    public var settings: RunSettings
    /// The stages as they start each pipeline run.
    public var pipeline: ReminderPipeline
    /// Decode and pipeline runs each; the fastest of each is reported.
    public var runs: Int
    /// The shard whose work the pipeline runs measure (`nil`: the whole run).
    public var shard: Shard?

    /// Shard `index` of `count`, as `--shard I/N`.
    public struct Shard: Sendable, Equatable {
        /// The shard, from 0.
        public var index: Int
        /// The number of shards.
        public var count: Int

        /// Shard `index` (from 0) of `count`.
        public init(index: Int, count: Int) {
            precondition(count >= 1 && (0..<count).contains(index), "shard \(index) of \(count)")
            self.index = index
            self.count = count
        }

        /// `I/N`, as the flag takes it.
        public var text: String { "\(index)/\(count)" }

        /// A writer of this shard's lines over `pipeline`'s stages, dropping
        /// them as it makes them.
        func writer(over pipeline: ReminderPipeline) -> ShardWriter {
            let header = ShardHeader(index: index, count: count, arguments: [], directory: "")
            do { return try ShardWriter(header: header, pipeline: pipeline, output: .discarding()) } catch {
                preconditionFailure("a header of numbers and empty text encodes: \(error)")
            }
        }
    }

    /// A bench of `feeds` through `pipeline`, `runs` times each way.
    public init(feeds: [String], settings: RunSettings, pipeline: ReminderPipeline, runs: Int = 3, shard: Shard? = nil) {
        self.feeds = feeds
        self.settings = settings
        self.pipeline = pipeline
        self.runs = max(1, runs)
        self.shard = shard
    }

    /// Fixes kept for the index sample, at most.
    static let sampleCapacity = 10_000

    /// Runs the bench; diagnostics of the feeds are printed on the first
    /// decode run only.
    public func run(progress: ProgressBar) -> Result {
        var result = Result()
        result.feeds = feeds
        result.shard = shard
        var counter: InstructionCounter?
        do { counter = try InstructionCounter() } catch {
            result.notes.append("instructions_per_fix: \(error)")
        }
        if !AllocationCounter.isAvailable {
            result.notes.append("allocations_per_1k_fixes: heap allocations are counted with glibc (Linux) only")
        }
        var sample = StreamSample<Coordinate>(capacity: Self.sampleCapacity)
        let steps = Double(2 * runs + 2)
        for round in 0..<runs {
            progress.show("decode", fraction: Double(2 * round) / steps, detail: "run \(round + 1) of \(runs)")
            var decodeSettings = settings
            decodeSettings.reportsDiagnostics = round == 0
            // Decoding alone, on this thread (a decode run with jobs reads ahead).
            decodeSettings.jobs = 1
            let fixes = DecodedFixSink(sampling: round == 0 ? sample : nil)
            let decode = measure(counter: nil) {
                FeedRun(settings: decodeSettings, stage: .decode, sinks: [fixes]).run(files: feeds)
            }
            if round == 0 {
                result.unreadable = decode.output.unreadable
                // Every feed's, also where a shard's pipeline run leaves
                // some out: the rate is the node's through the whole feed.
                result.fixes = decode.output.feeds.reduce(0) { $0 + $1.fixes }
                sample = fixes.sample ?? sample
                guard result.unreadable.isEmpty else { break }
            }
            result.decodeSeconds = min(result.decodeSeconds, decode.seconds)
            result.decodeAllocations = minimum(result.decodeAllocations, decode.allocations)

            progress.show("pipeline", fraction: Double(2 * round + 1) / steps, detail: "run \(round + 1) of \(runs)")
            var pipelineSettings = settings
            pipelineSettings.reportsDiagnostics = false
            let events = EventCountingSink()
            let writer = shard?.writer(over: pipeline)
            let run = measure(counter: counter) {
                FeedRun(
                    settings: pipelineSettings, stage: writer.map { .shard($0) } ?? .pipeline(pipeline),
                    sinks: writer == nil ? [events] : []
                ).run(files: feeds)
            }
            result.pipelineSeconds = min(result.pipelineSeconds, run.seconds)
            result.pipelineAllocations = minimum(result.pipelineAllocations, run.allocations)
            if let instructions = run.instructions {
                result.pipelineInstructions = min(result.pipelineInstructions ?? .max, instructions)
            }
            if let writer {
                result.devices = writer.summary?.devices ?? 0
                result.transitions = writer.transitionsWritten
                result.reminders = nil
            } else {
                result.devices = run.output.pipeline?.devices ?? 0
                result.transitions = events.transitions
                result.reminders = events.reminders
            }
        }
        if let shard {
            result.notes.append(
                "reminders: shard \(shard.text) runs the per-device stages only; its reminders come from "
                    + "repeat-sim merge, which runs the tasks' side once for every shard")
        }
        var share = StageShare()
        for round in 0..<runs where result.unreadable.isEmpty {
            progress.show("ratio", fraction: Double(2 * runs) / steps, detail: "lockstep run \(round + 1) of \(runs)")
            do { try share.run(feeds: feeds, settings: settings, pipeline: pipeline, shard: shard) } catch { break }
        }
        result.pipelineVsDecode = share.pipelineVsDecode

        progress.show("index", fraction: Double(2 * runs + 1) / steps, detail: "grid and brute force")
        let shapes = pipeline.regions.map(\.shape)
        let grid = SpatialGrid(shapes: shapes)
        result.regions = grid.count
        result.indexBytes = grid.memoryFootprint
        let size = min(sample.items.count, max(100, min(Self.sampleCapacity, 20_000_000 / max(shapes.count, 1))))
        result.index = IndexComparison.measure(
            grid: grid, reference: BruteForceIndex(shapes: shapes), sample: sample.evenly(size), rounds: runs)
        progress.clear()
        result.peakRSSMegabytes = ParseBench.peakResidentMegabytes()
        return result
    }

    /// What one run of `body` took: seconds, allocations and instructions.
    private func measure<T>(
        counter: InstructionCounter?, _ body: () -> T
    ) -> (
        output: T, seconds: Double, allocations: UInt64?, instructions: Int64?
    ) {
        let allocationsBefore = AllocationCounter.count
        let clock = ContinuousClock()
        let start = clock.now
        let (output, instructions): (T, Int64?) = counter.map { $0.measure(body) } ?? (body(), nil)
        let seconds = IndexComparison.seconds(clock.now - start)
        let allocations = AllocationCounter.isAvailable ? AllocationCounter.count - allocationsBefore : nil
        return (output, seconds, allocations, instructions)
    }

    private func minimum(_ a: UInt64?, _ b: UInt64?) -> UInt64? {
        guard let b else { return a }
        return min(a ?? .max, b)
    }
}

/// Counts the decoded fixes of a decode run and, on the first, keeps an
/// even sample of their positions.
private final class DecodedFixSink: RunSink {
    var sample: StreamSample<Coordinate>?

    init(sampling sample: StreamSample<Coordinate>?) { self.sample = sample }

    func decoded(_ batch: FeedBatch, feed: String) {
        guard sample != nil else { return }
        for fix in batch.fixes { sample!.offer(fix.coordinate) }
    }
}

/// Counts a pipeline run's transitions and reminders, as `replay` would
/// print them.
private final class EventCountingSink: RunSink {
    var transitions = 0
    var reminders = 0
    /// Like `replay`'s printed lines, which need no fix events.
    var receivesFixes: Bool { false }

    func receive(_ event: ReminderPipeline.Event) {
        switch event {
        case .transition: transitions += 1
        case .reminder(let output): if case .notify = output { reminders += 1 }
        case .fix, .untimed, .late: break
        }
    }
}
