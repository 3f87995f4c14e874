import FeedParsing
import Foundation
import GeoCore

/// The per-device stages on worker threads (`--jobs`), what acts on their
/// outcomes on the caller's: a run's output exactly as a single thread
/// prints it, or a `--shard`'s lines exactly as a single thread writes them.
///
/// Each read's fixes (and epochs without a fix) go to every worker, each
/// taking the devices that ``WorkerRoute`` gives it; a worker's
/// ``DeviceOutputs`` say which of its outcomes each input made. The caller
/// then walks the read's inputs in the feed's order and hands each one's
/// outcomes to an ``OutcomeConsumer`` — the ``ReminderPipeline``'s tasks'
/// side (``TasksSide``) or a ``ShardWriter`` — which is what a
/// single-threaded run does fix by fix. A few reads are in flight at once,
/// so decoding, the workers and the caller overlap.
///
/// Used from one thread; ``finish(_:lastFeed:)``, ``end(_:)`` or ``stop()``
/// ends the workers.
final class ShardedStages {
    /// The feed of a read: its name for messages, its position among the
    /// run's feeds for a shard's lines.
    struct Feed: Sendable {
        var name: String
        var index: Int
    }

    /// A slice of one read's inputs as the workers see them.
    private final class Work: Sendable {
        let feed: Feed
        /// The position of the slice's first input among its feed's.
        let firstInput: Int
        /// The read's fixes, shared by its slices.
        let read: SharedFixes
        /// The fixes of this slice.
        let range: Range<Int>
        /// The read's epochs without a fix (its last slice only).
        let epochs: [EpochWithoutFix]
        /// The worker of each input, the fixes then the epochs
        /// (``WorkerRoute/elsewhere`` for another shard's).
        let shards: [UInt8]

        init(
            feed: Feed, firstInput: Int, read: SharedFixes, range: Range<Int>, epochs: [EpochWithoutFix],
            shards: [UInt8]
        ) {
            self.feed = feed
            self.firstInput = firstInput
            self.read = read
            self.range = range
            self.epochs = epochs
            self.shards = shards
        }
    }

    /// What a worker is handed.
    private enum Job: Sendable {
        /// A slice of a read.
        case work(Work)
        /// The end of the run: finish every device (their last fixes,
        /// held for the reorder window), in name order.
        case finishDevices
    }

    /// What a worker hands back: a slice's outputs, or at the end its
    /// devices, chunk by chunk.
    private enum Outcomes: Sendable {
        case slice(DeviceOutputs)
        case finished(FinishedDevices)
    }

    /// Fixes per slice: small enough that the slices in flight hold little
    /// (a read of a CSV fleet is some 35 000 fixes), large enough that a
    /// hand-over costs nothing per fix.
    private static let sliceSize = 4096

    private static let slicesInFlight = 16

    /// Devices a worker finishes before handing them on, at the end of a
    /// run: the caller acts on a chunk while the workers finish the next.
    private static let finishChunk = 4096

    private var router: WorkerRoute
    /// The inputs of the feed ``submittedFeed`` handed on so far, those of
    /// other shards included.
    private var inputsSubmitted = 0
    private var submittedFeed = 0
    private let inboxes: [HandOffQueue<Job>]
    private let outboxes: [HandOffQueue<Outcomes>]
    /// Each worker's stages once its inbox is finished.
    private let ended: [HandOffQueue<DeviceStages>]
    private var inFlight: [Work] = []
    private var stopped = false
    /// The workers' stages once they ended, kept as long as this object:
    /// freeing 100 000 devices' states one by one takes a while, and a
    /// command that leaves its run to the exit does not pay for it.
    private var endedStages: [DeviceStages] = []

    /// `jobs` workers (at most ``RunSettings/maximumJobs``), each with a
    /// copy of `template` (stages that hold no device yet), taking the
    /// devices of shard `shard.index` of `shard.count` (every device by
    /// default).
    init(jobs: Int, template: DeviceStages, shard: (index: Int, count: Int) = (0, 1)) {
        let count = min(max(1, jobs), RunSettings.maximumJobs)
        router = WorkerRoute(workers: count, shard: shard.index, of: shard.count)
        inboxes = (0..<count).map { _ in HandOffQueue(depth: Self.slicesInFlight + 1) }
        outboxes = (0..<count).map { _ in HandOffQueue(depth: Self.slicesInFlight + 1) }
        ended = (0..<count).map { _ in HandOffQueue(depth: 1) }
        for shard in 0..<count {
            let (inbox, outbox, end) = (inboxes[shard], outboxes[shard], ended[shard])
            let thread = Thread {
                var stages = template
                while let job = inbox.pop() {
                    switch job {
                    case .work(let work):
                        _ = outbox.push(.slice(Self.take(work, shard: shard, with: &stages)))
                    case .finishDevices:
                        stages.finishAll(chunk: Self.finishChunk) { devices, outputs, isLast in
                            _ = outbox.push(.finished(FinishedDevices(devices: devices, outputs: outputs, isLast: isLast)))
                        }
                    }
                }
                outbox.finish()
                _ = end.push(stages)
                end.finish()
            }
            thread.name = "repeat-sim stages \(shard + 1)/\(count)"
            thread.start()
        }
    }

    deinit { stop() }

    /// The worker's part of one read: its devices' inputs, in order. The
    /// other workers' fixes are passed over by their shard alone, not read.
    private static func take(_ work: Work, shard: Int, with stages: inout DeviceStages) -> DeviceOutputs {
        let mine = UInt8(shard)
        var outputs = DeviceOutputs(capacity: work.shards.count { $0 == mine })
        work.read.fixes.withUnsafeBufferPointer { fixes in
            work.shards.withUnsafeBufferPointer { shards in
                let first = work.range.lowerBound
                for index in 0..<work.range.count where shards[index] == mine {
                    stages.push(fixes[first + index], into: &outputs)
                    outputs.endInput()
                }
            }
        }
        for (index, epoch) in work.epochs.enumerated() where work.shards[work.range.count + index] == mine {
            stages.advance(device: epoch.device, to: epoch.time, into: &outputs)
            outputs.endInput()
        }
        return outputs
    }

    /// Hands one read of `feed` — its `fixes`, then its `epochs` — to the
    /// workers in slices, and hands `consumer` the outcomes of the oldest
    /// slice whenever enough are in flight. Once every slice is done,
    /// `fixes` go back to `pool`, if given, for the decoder to fill again.
    func submit<Consumer: OutcomeConsumer>(
        feed: Feed, fixes: [Fix], epochs: [EpochWithoutFix], to consumer: inout Consumer,
        returningTo pool: FixArrayPool? = nil
    ) {
        let read = SharedFixes(fixes, returningTo: pool)
        if feed.index != submittedFeed {
            submittedFeed = feed.index
            inputsSubmitted = 0
        }
        var start = 0
        repeat {
            let end = min(start + Self.sliceSize, fixes.count)
            let last = end == fixes.count
            var shards: [UInt8] = []
            shards.reserveCapacity(end - start + (last ? epochs.count : 0))
            var router = self.router
            fixes.withUnsafeBufferPointer { fixes in
                for index in start..<end { shards.append(router.worker(of: fixes[index].deviceID)) }
            }
            if last { for epoch in epochs { shards.append(router.worker(of: epoch.device)) } }
            self.router = router
            let work = Work(
                feed: feed, firstInput: inputsSubmitted, read: read, range: start..<end, epochs: last ? epochs : [],
                shards: shards)
            inputsSubmitted += shards.count
            for inbox in inboxes { _ = inbox.push(.work(work)) }
            inFlight.append(work)
            while inFlight.count >= Self.slicesInFlight { collect(into: &consumer) }
            start = end
        } while start < fixes.count
    }

    /// Hands `consumer` the outcomes of every read in flight, waiting for
    /// the workers: what a feed that has nothing more yet has given so far.
    func drain<Consumer: OutcomeConsumer>(into consumer: inout Consumer) {
        while !inFlight.isEmpty { collect(into: &consumer) }
    }

    /// The oldest slice's outcomes, in the feed's order: each run of inputs
    /// that went to one worker in one step (none for other shards' inputs).
    private func collect<Consumer: OutcomeConsumer>(into consumer: inout Consumer) {
        let work = inFlight.removeFirst()
        var outputs = outboxes.map { outbox in
            guard case .slice(let outputs) = outbox.pop()! else { preconditionFailure("a worker finished early") }
            return outputs
        }
        var cursors = Array(repeating: DeviceOutputs.Cursor(), count: outputs.count)
        var taken = Array(repeating: 0, count: outputs.count)
        let shards = work.shards
        var start = 0
        while start < shards.count {
            let shard = shards[start]
            var end = start + 1
            while end < shards.count, shards[end] == shard { end += 1 }
            if shard != WorkerRoute.elsewhere {
                let worker = Int(shard)
                let first = taken[worker]
                taken[worker] += end - start
                consumer.take(
                    &outputs[worker], inputs: first..<taken[worker], from: &cursors[worker],
                    firstInput: work.firstInput + start, feed: work.feed)
            }
            start = end
        }
        consumer.endSlice(feed: work.feed)
    }

    /// Ends the workers after the reads in flight and hands their devices'
    /// last outcomes to `consumer`, device by device in name order, as
    /// from `lastFeed`; returns the workers' stages, for the run's counts.
    /// Each worker finishes its own devices, so that the end of a run with
    /// 100 000 devices runs on every thread too.
    func finish<Consumer: OutcomeConsumer>(_ consumer: inout Consumer, lastFeed: Feed) -> [DeviceStages] {
        // Asked for before the reads in flight are acted on: a worker
        // finishes its devices once it is done with them, not once this
        // thread is, and the outcomes come back in the same order.
        for inbox in inboxes { _ = inbox.push(.finishDevices) }
        drain(into: &consumer)
        finishDevices(into: &consumer, lastFeed: lastFeed)
        endedStages = endWorkers()
        return endedStages
    }

    /// The workers' devices' last outcomes, in name order: a worker's next
    /// chunk is asked for only once its last one is acted on, so the
    /// workers finish while this runs.
    private func finishDevices<Consumer: OutcomeConsumer>(into consumer: inout Consumer, lastFeed: Feed) {
        let workers = outboxes.count
        func next(_ worker: Int) -> FinishedDevices {
            guard case .finished(let chunk) = outboxes[worker].pop()! else {
                preconditionFailure("a worker's slice came after its devices were finished")
            }
            return chunk
        }
        var chunks = (0..<workers).map(next)
        var names = chunks.map { $0.devices.map(\.name) }
        var positions = Array(repeating: 0, count: workers)
        var cursors = Array(repeating: DeviceOutputs.Cursor(), count: workers)
        while true {
            var first: Int?
            for worker in 0..<workers {
                while positions[worker] == names[worker].count, !chunks[worker].isLast {
                    chunks[worker] = next(worker)
                    names[worker] = chunks[worker].devices.map(\.name)
                    positions[worker] = 0
                    cursors[worker] = DeviceOutputs.Cursor()
                }
                guard positions[worker] < names[worker].count else { continue }
                if let chosen = first, names[chosen][positions[chosen]] < names[worker][positions[worker]] { continue }
                first = worker
            }
            guard let worker = first else { return }
            let position = positions[worker]
            consumer.finish(
                device: chunks[worker].devices[position], &chunks[worker].outputs,
                through: chunks[worker].outputs.itemEnds[position], from: &cursors[worker], feed: lastFeed)
            positions[worker] += 1
        }
    }

    /// The workers' stages without finishing the devices (a run that
    /// `--strict` stopped): ends the workers after `consumer` has the reads
    /// in flight.
    func end<Consumer: OutcomeConsumer>(_ consumer: inout Consumer) -> [DeviceStages] {
        drain(into: &consumer)
        endedStages = endWorkers()
        return endedStages
    }

    /// Finishes the inboxes and waits for every worker's stages.
    private func endWorkers() -> [DeviceStages] {
        stopped = true
        for inbox in inboxes { inbox.finish() }
        return zip(outboxes, ended).map { outbox, end in
            while outbox.pop() != nil {}
            return end.pop()!
        }
    }

    /// Ends the workers without waiting for their work (a run that ended
    /// early); nothing more is handed on.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for inbox in inboxes { inbox.cancel() }
        for outbox in outboxes { outbox.cancel() }
    }
}
