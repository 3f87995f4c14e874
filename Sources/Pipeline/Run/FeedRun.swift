import FeedParsing
import Foundation
import GeoCore

/// The one loop every command runs: byte sources → decoder → (the reminder
/// stages) → sinks, with diagnostics, `--strict`, progress, pacing and the
/// run's counts in one place.
///
/// `decode` runs it with the ``Stage/decode`` stage, `replay` and `live`
/// with ``Stage/pipeline(_:)``; files are read on the calling thread
/// (``run(files:)``), a live source in a task (``run(live:)``).
///
/// Per read of a source: the decoder turns the bytes into a ``FeedBatch``;
/// its diagnostics are printed, located, and
/// counted (under `--strict` the first malformed record ends the run and
/// nothing of that read is handed on); then its fixes go to the sinks, or
/// through the ``ReminderPipeline`` whose events go to the sinks one by
/// one, paced on the feed's clock.
///
/// Used from one task at a time.
public final class FeedRun {
    /// What a run does with the fixes it decodes.
    public enum Stage {
        /// Hand the decoded items to the sinks as they are.
        case decode
        /// Run the fixes through the stages and hand on their events.
        case pipeline(ReminderPipeline)
        /// Run one shard's devices through the per-device stages and write
        /// what the tasks' side needs for `repeat-sim merge` (`--shard`).
        case shard(ShardWriter)
    }

    /// What a run did.
    public struct Result: Sendable {
        /// One summary per input read, in order.
        public var feeds: [FeedSummary] = []
        /// The stages' counts (pipeline runs).
        public var pipeline: ReminderPipeline.Statistics?
        /// Inputs that could not be read, with the reason.
        public var unreadable: [String] = []
        /// The feed files a `--shard` run left out, as holding only other
        /// shards' devices (``shardLeavesOut(_:device:writer:settings:)``).
        public var feedsLeftOut = 0
        /// Whether `--strict` stopped the run at a malformed record.
        public var stoppedAtMalformedRecord = false
        /// Whether a signal (``RunSettings/stop``) stopped a file run before
        /// the end of its feeds; what it read was finished as at their end.
        public var stoppedBySignal = false
        /// A paced run stopped by a signal: the feed's time when it stopped,
        /// and the reminders it had decided for later, which were not handed
        /// on (a paced run's output ends where its clock stood).
        public var pacedStop: (time: Timestamp?, reminders: Int)?
        /// Wall-clock seconds from the start of the run to its end.
        public var elapsedSeconds = 0.0
    }

    private let settings: RunSettings
    private var pipeline: ReminderPipeline?
    /// The per-device stages on worker threads (`--jobs` above 1, files
    /// only), for the pipeline or the shard's writer.
    private var sharded: ShardedStages?
    /// The writer of a `--shard` run.
    private var shardWriter: ShardWriter?
    /// The position of the feed being read among the run's feeds.
    private var feedIndex = 0
    /// The first feed's decoding, started before the run.
    private var earlyRead: FeedReadAhead?
    private let sinks: [any RunSink]
    private var events: [ReminderPipeline.Event] = []
    private var pacer: Pacer
    private var progress: RunProgress?
    private var result = Result()
    private var warnings = (untimed: 0, late: 0)
    private var feedTime: Timestamp?
    /// The time of the last fix or reminder a paced run handed on.
    private var pacedClock: Timestamp?
    private var lastReload = Date()
    private var repeats = DiagnosticRepeats()

    /// A run with `settings` that hands what `stage` makes to `sinks`, in
    /// their order.
    public init(settings: RunSettings, stage: Stage, sinks: [any RunSink]) {
        self.settings = settings
        switch stage {
        case .decode: break
        case .pipeline(var pipeline):
            pipeline.emitsFixes = settings.pace != .max || sinks.contains { $0.receivesFixes }
            self.pipeline = pipeline
        case .shard(let writer): shardWriter = writer
        }
        self.sinks = sinks
        pacer = Pacer(pace: settings.pace)
    }

    /// A feed file decoding on a thread of its own before the run that
    /// reads it is made (see ``startReading(_:format:options:)``).
    public final class EarlyRead {
        fileprivate let path: String
        fileprivate let reader: FeedReadAhead

        fileprivate init(path: String, reader: FeedReadAhead) {
            self.path = path
            self.reader = reader
        }
    }

    /// Starts decoding `path` now, for a run with `--jobs` above 1 (a
    /// pipeline's or a shard's) that reads it first
    /// (``run(files:startedEarly:)``): the decoding thread takes a few
    /// reads while the caller still reads its tasks and regions, which
    /// leaves a thread idle at times. What the read finds
    /// is reported when the run takes it.
    public static func startReading(_ path: String, format: FeedFormat?, options: FeedDecodingOptions) -> EarlyRead {
        EarlyRead(path: path, reader: FeedReadAhead(path: path, format: format, options: options))
    }

    /// The size of the files `paths` together, in bytes; `nil` when one is
    /// not a regular file (`-` for standard input, a pipe, a device) nor
    /// copied whole into its spool of `spools`.
    public static func totalBytes(of paths: [String], spools: [String: FeedSpool] = [:]) -> Int? {
        var total = 0
        for path in paths {
            if let copied = spools[path]?.completeSize {
                total += copied
                continue
            }
            var info = stat()
            guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int(info.st_size)
        }
        return total
    }

    /// Reads `paths` (files, `-` for stdin) one after the other on the
    /// calling thread, then releases what the stages still hold and
    /// finishes the sinks. A file that cannot be read is reported and
    /// skipped (see ``Result/unreadable``). `startedEarly`, the first of
    /// `paths` decoding already, is for a run that reads ahead (`--jobs`
    /// above 1).
    public func run(files paths: [String], startedEarly: EarlyRead? = nil) -> Result {
        let started = Date()
        progress = RunProgress(
            label: settings.label, feeds: paths, spools: settings.spools, enabled: settings.showsProgress)
        if settings.jobs > 1, let pipeline {
            sharded = ShardedStages(jobs: settings.jobs, template: pipeline.emptyDeviceStages())
        } else if settings.jobs > 1, let shardWriter {
            let (stages, shard) = shardWriter.workerTemplate
            sharded = ShardedStages(jobs: settings.jobs, template: stages, shard: shard)
        }
        precondition(startedEarly == nil || sharded != nil, "only a run that reads ahead takes a read started early")
        earlyRead = startedEarly.flatMap { $0.path == paths.first ? $0.reader : nil }
        for (index, path) in paths.enumerated() {
            feedIndex = index
            var summary = FeedSummary(feed: path == "-" ? "<stdin>" : path)
            let device = settings.namesDevicesAfterFiles && paths.count > 1 ? (path as NSString).lastPathComponent : nil
            if Self.shardLeavesOut(path, device: device, writer: shardWriter, settings: settings) {
                result.feedsLeftOut += 1
                // A read started early is the first file's.
                earlyRead = nil
                // Its bytes count as done on the progress bar.
                progress?.finishFeed(bytes: Self.totalBytes(of: [path]) ?? 0)
                continue
            }
            guard read(file: path, into: &summary, device: device) else { continue }
            result.feeds.append(summary)
            if result.stoppedAtMalformedRecord || result.stoppedBySignal { break }
        }
        return finish(started: started)
    }

    /// Reads a live source until it ends or the task is cancelled (Ctrl-C),
    /// which ends the run normally; then releases what the stages still
    /// hold and finishes the sinks.
    /// - Throws: what the source throws when it fails for good.
    public func run(live feed: LiveFeed) async throws -> Result {
        let started = Date()
        var summary = FeedSummary(feed: feed.name)
        try await read(
            live: quietMarked(feed.events, after: feed.quietAfter), format: feed.format,
            checksWeekRollover: feed.checksWeekRollover, into: &summary)
        result.feeds.append(summary)
        return finish(started: started)
    }

    /// Hands the outcomes of every shard of a `--shard` run to the tasks'
    /// side in the unsharded run's order (`repeat-sim merge`), then
    /// finishes the sinks: the unsharded run's output. `feeds` are the
    /// run's feed arguments, for warnings.
    /// - Throws: ``ShardFileError`` for a shard file that does not fit.
    public func run(merging shards: [ShardReader], feeds: [String]) throws -> Result {
        let started = Date()
        var stages = pipeline!
        pipeline = nil
        defer { pipeline = stages }
        let names = feeds.map { $0 == "-" ? "<stdin>" : $0 }
        result.pipeline = try ShardMerge.run(shards, into: &stages) { events, feed in
            dispatch(events, feed: feed.flatMap { names.indices.contains($0) ? names[$0] : nil } ?? "")
        }
        let summaries = shards.compactMap(\.summary)
        // A shard lists only the unreadable files it read (or left out
        // unread): each of the shards' lists, once.
        var unreadable: [String] = []
        for reason in summaries.flatMap(\.unreadable) where !unreadable.contains(reason) { unreadable.append(reason) }
        result.unreadable = unreadable
        result.stoppedAtMalformedRecord = summaries.contains { $0.stoppedAtMalformedRecord }
        for sink in sinks { sink.finish() }
        result.elapsedSeconds = Date().timeIntervalSince(started)
        return result
    }

    private func finish(started: Date) -> Result {
        progress?.clear()
        if settings.reportsDiagnostics { for line in repeats.summaries { Console.write(line) } }
        let stopped = result.stoppedAtMalformedRecord
        let lastFeed = ShardedStages.Feed(name: "", index: feedIndex)
        if let shardWriter {
            do {
                if let sharded {
                    var writer = shardWriter
                    let stages = stopped ? sharded.end(&writer) : sharded.finish(&writer, lastFeed: lastFeed)
                    if let failure = shardWriter.newFailure() { throw failure }
                    try shardWriter.finish(counting: stages, unreadable: result.unreadable, stoppedAtMalformedRecord: stopped)
                } else {
                    try shardWriter.finish(unreadable: result.unreadable, stoppedAtMalformedRecord: stopped, lastFeed: feedIndex)
                }
            } catch {
                shardLinesFailed(error)
            }
        } else if let sharded, pipeline != nil {
            onTasksSide { side in
                let workers = stopped ? sharded.end(&side) : sharded.finish(&side, lastFeed: lastFeed)
                result.pipeline = side.pipeline.statistics(adding: workers)
            }
        } else if !result.stoppedAtMalformedRecord, pipeline != nil {
            pipeline!.finish { dispatch($0, feed: "") }
        }
        for sink in sinks { sink.finish() }
        if sharded == nil { result.pipeline = pipeline?.statistics }
        result.elapsedSeconds = Date().timeIntervalSince(started)
        return result
    }

    /// Reads one file (or stdin) to its end; `false` when it could not be read.
    /// With `--jobs` above 1 the file is decoded on a thread of its own:
    /// the stages' workers take the reads on the others (a decode run's
    /// sinks, on the calling thread).
    private func read(file path: String, into summary: inout FeedSummary, device: String?) -> Bool {
        if sharded != nil || (pipeline == nil && shardWriter == nil && settings.jobs > 1) {
            return readAhead(file: path, into: &summary, device: device)
        }
        var bytesRead = 0
        do {
            let decoder = try FeedFileDecoding.decode(
                path: path, format: settings.format, options: settings.decoding, spool: settings.spools[path],
                onRead: { bytesRead = $0 }
            ) { batch in
                guard consume(&batch, summary: &summary, device: device) else { return false }
                progress?.update(bytes: bytesRead, fixes: pipeline?.fixesEvaluated ?? summary.fixes, time: feedTime)
                return true
            }
            summary.format = decoder.format
            summary.ignored = decoder.statistics.ignored
        } catch {
            progress?.clear()
            Console.write("Error: \(error)")
            result.unreadable.append("\(error)")
            return false
        }
        progress?.finishFeed(bytes: bytesRead)
        return true
    }

    /// ``read(file:into:device:)`` with decoding on a thread of its own.
    private func readAhead(file path: String, into summary: inout FeedSummary, device: String?) -> Bool {
        let reader =
            earlyRead
            ?? FeedReadAhead(path: path, format: settings.format, options: settings.decoding, spool: settings.spools[path])
        earlyRead = nil
        var bytesRead = 0
        // The progress line counts the fixes of the feeds read before too.
        let fixesBefore = result.feeds.reduce(0) { $0 + $1.fixes }
        while let message = reader.next(whileWaiting: releaseInFlight) {
            switch message {
            case .batch(var batch, let bytes, let format, let ignored):
                bytesRead = bytes
                summary.format = format
                summary.ignored = ignored
                guard consume(&batch, summary: &summary, device: device, recycling: reader.spareFixes) else { return true }
                progress?.update(bytes: bytesRead, fixes: fixesBefore + summary.fixes, time: feedTime)
            case .failed(let reason):
                progress?.clear()
                Console.write("Error: \(reason)")
                result.unreadable.append(reason)
                return false
            }
        }
        progress?.finishFeed(bytes: bytesRead)
        return true
    }

    /// Reads a live source until it ends or the task is cancelled; with
    /// `checksWeekRollover`, its times are corrected by the
    /// ``WeekRollover`` its first fix's time shows, if any.
    private func read(
        live events: AsyncThrowingStream<LiveSourceEvent, any Error>, format: FeedFormat?, checksWeekRollover: Bool,
        into summary: inout FeedSummary
    ) async throws {
        let decoder = makeFeedDecoder(format: settings.format ?? format, options: settings.decoding)
        var batch = FeedBatch()
        var rollover: WeekRollover?
        var rolloverChecked = !checksWeekRollover
        func correctRollover() {
            // The first fix's time, from the satellites; an epoch without a
            // fix may carry the receiver's guess.
            if !rolloverChecked, let first = batch.fixes.lazy.compactMap(\.time).first {
                rolloverChecked = true
                rollover = WeekRollover(receiverTime: first, clock: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
                if let rollover {
                    progress?.clear()
                    Console.write(rollover.warning(source: summary.feed))
                }
            }
            rollover?.correct(&batch)
        }
        defer {
            summary.format = decoder.format
            summary.ignored = decoder.statistics.ignored
        }
        do {
            for try await event in events {
                switch event {
                case .bytes(let chunk):
                    chunk.withUnsafeBytes { decoder.decode($0, into: &batch) }
                case .status(let status):
                    Console.write("repeat-sim: \(status)")
                case .quiet:
                    decoder.release(into: &batch)
                }
                reloadTasksIfDue()
                correctRollover()
                guard consume(&batch, summary: &summary, device: nil) else { return }
                batch.removeAll()
                if event == .quiet { releaseHeld() }
            }
        } catch is CancellationError {
            // Ctrl-C: what the decoder holds is still handed on below.
        }
        decoder.finish(into: &batch)
        correctRollover()
        _ = consume(&batch, summary: &summary, device: nil)
    }

    /// `epochs` with `device` for those without a device of their own.
    private func named(_ epochs: [EpochWithoutFix], _ device: String?) -> [EpochWithoutFix] {
        guard let device else { return epochs }
        var epochs = epochs
        for index in epochs.indices where epochs[index].device == nil { epochs[index].device = device }
        return epochs
    }

    /// Hands on the outcomes of the reads the workers have in flight, when
    /// the feed (a pipe, a terminal) has nothing more yet: its reminders
    /// come as each read is evaluated, as with one job. (A shard's lines
    /// are for `merge`, which reads them whole: they wait.)
    private func releaseInFlight() {
        guard let sharded, shardWriter == nil, pipeline != nil else { return }
        onTasksSide { sharded.drain(into: &$0) }
        for sink in sinks { sink.flush() }
    }

    /// Runs `body` on the tasks' side of the stages, which takes the
    /// workers' outcomes (``ShardedStages``), and keeps the stages it
    /// leaves; nothing without stages.
    private func onTasksSide(_ body: (inout TasksSide) -> Void) {
        guard let stages = pipeline else { return }
        pipeline = nil
        var side = TasksSide(consume stages) { self.dispatch($0, feed: $1) }
        body(&side)
        pipeline = side.pipeline
    }

    /// Hands on what the stages hold without waiting for the reorder window.
    private func releaseHeld() {
        guard pipeline != nil else { return }
        events.removeAll(keepingCapacity: true)
        pipeline!.releaseHeld(into: &events)
        dispatch(events, feed: "")
        for sink in sinks { sink.flush() }
    }

    /// Reports the batch's diagnostics and hands its items on; `false`
    /// under `--strict` at a malformed record, or once a stop is requested,
    /// when nothing of the batch is handed on. The worker threads hand the
    /// fixes to `pool` when done.
    private func consume(
        _ batch: inout FeedBatch, summary: inout FeedSummary, device: String?, recycling pool: FixArrayPool? = nil
    ) -> Bool {
        if settings.stop?.isRequested == true {
            result.stoppedBySignal = true
            return false
        }
        for diagnostic in batch.diagnostics {
            if settings.reportsDiagnostics, settings.verbose || repeats.shouldPrint(diagnostic) {
                progress?.clear()
                Console.write(diagnostic.located(in: summary.feed))
            }
            summary.count(diagnostic)
            if settings.strict, diagnostic.isInputError {
                result.stoppedAtMalformedRecord = true
                return false
            }
        }
        summary.fixes += batch.fixes.count
        if summary.firstPosition == nil { summary.firstPosition = batch.fixes.first?.coordinate }
        summary.waypoints += batch.waypoints.count
        if pipeline?.emitsFixes == false, let time = batch.fixes.last(where: { $0.time != nil })?.time {
            feedTime = time  // for the progress line, which no `.fix` event moves on
        }
        if let device {
            let id = DeviceID(device)
            for index in batch.fixes.indices where batch.fixes[index].deviceID == nil { batch.fixes[index].deviceID = id }
        }
        let feed = ShardedStages.Feed(name: summary.feed, index: feedIndex)
        if let sharded, let shardWriter {
            var writer = shardWriter
            sharded.submit(
                feed: feed, fixes: batch.fixes, epochs: named(batch.epochsWithoutFix, device), to: &writer,
                returningTo: pool)
            if let failure = shardWriter.newFailure() {
                shardLinesFailed(failure)
                return false
            }
        } else if let shardWriter {
            do {
                try shardWriter.take(feed: feedIndex, fixes: batch.fixes, epochs: named(batch.epochsWithoutFix, device))
            } catch {
                shardLinesFailed(error)
                return false
            }
        } else if let sharded, pipeline != nil {
            let epochs = named(batch.epochsWithoutFix, device)
            onTasksSide { sharded.submit(feed: feed, fixes: batch.fixes, epochs: epochs, to: &$0, returningTo: pool) }
        } else if var stages = pipeline {
            // Worked on as locals, so that the per-fix loop pays for no
            // dynamic exclusivity check on this object's properties.
            pipeline = nil
            var released: [ReminderPipeline.Event] = []
            swap(&released, &events)
            // A few thousand fixes at a time, so that the events of a whole
            // chunk (tens of thousands of fixes), or of a burst of
            // reminders, are never held at once.
            let feed = summary.feed
            var start = 0
            while start < batch.fixes.count {
                let end = min(start + 4096, batch.fixes.count)
                released.removeAll(keepingCapacity: true)
                stages.push(contentsOf: batch.fixes[start..<end], into: &released) { events in
                    dispatch(events, feed: feed)
                    events.removeAll(keepingCapacity: true)
                }
                dispatch(released, feed: feed)
                start = end
            }
            if !batch.epochsWithoutFix.isEmpty {
                released.removeAll(keepingCapacity: true)
                for epoch in batch.epochsWithoutFix {
                    stages.advance(device: epoch.device ?? device, to: epoch.time, into: &released)
                }
                dispatch(released, feed: summary.feed)
            }
            pipeline = stages
            swap(&released, &events)
        } else {
            for sink in sinks { sink.decoded(batch, feed: summary.feed) }
        }
        for sink in sinks { sink.flush() }
        return true
    }

    /// Reports that the shard's lines could not be written.
    private func shardLinesFailed(_ error: any Error) {
        Console.write("Error: could not write the shard's lines: \(error)")
        result.unreadable.append("\(error)")
    }

    /// Hands the stages' events to the sinks in order, pacing each fix and
    /// reporting the fixes that have no place on the clock.
    private func dispatch(_ events: [ReminderPipeline.Event], feed: String) {
        let paced = settings.pace != .max
        // A sink alone may take many events at once (its lines need not
        // interleave with another's), after the warnings about them.
        let together = !paced && sinks.count == 1 && events.count >= sinks[0].batchMinimum
        var lastTime: Timestamp?
        defer { if let lastTime { feedTime = lastTime } }
        func note(_ event: ReminderPipeline.Event) {
            switch event {
            case .untimed:
                warnings.untimed += 1
                if warnings.untimed <= 5 { warn("\(feed): a fix without time has no place on the clock; skipped") }
            case .late(let fix):
                warnings.late += 1
                if warnings.late <= 5 {
                    warn("\(feed): fix at \(RFC3339.format(fix.time)) is older than the reorder window; dropped")
                }
            case .fix(let fix):
                lastTime = fix.time
            case .transition, .reminder:
                break
            }
        }
        guard together else {
            for event in paced ? Self.inPacedOrder(events) : events {
                if paced {
                    // A fix or a reminder waits for its time, unless a stop
                    // came, before or while it waited: the clock stood still.
                    let time = Self.pacedTime(of: event)
                    if let time, settings.stop?.isRequested != true { pace(to: time) }
                    if settings.stop?.isRequested == true {
                        withhold(event)
                        continue
                    }
                    if let time { pacedClock = Timestamp(secondsSince1970: time) }
                }
                note(event)
                for sink in sinks { sink.receive(event) }
            }
            return
        }
        // Each event read where it lies: `for event in events` copied every
        // one out and destroyed the copy (the strings of 63 000 reminders
        // at the clock's start, retained and released on this thread).
        events.withUnsafeBufferPointer { events in
            for index in events.indices { note(events[index]) }
        }
        sinks[0].receive(contentsOf: events)
    }

    /// The feed time a paced run waits for before it hands `event` on, in
    /// seconds since 1970: a fix's or a reminder's.
    private static func pacedTime(of event: ReminderPipeline.Event) -> Double? {
        switch event {
        case .fix(let fix): return fix.time.secondsSince1970
        case .reminder(let output): return output.time.timeIntervalSince1970
        case .untimed, .late, .transition: return nil
        }
    }

    /// `events` in the order a paced run hands them on: a reminder whose
    /// time lies before the fix that brought it (a due time the clock
    /// passed between two fixes) goes before that fix, so that it comes at
    /// its own time rather than when the next fix does.
    private static func inPacedOrder(_ events: [ReminderPipeline.Event]) -> [ReminderPipeline.Event] {
        var ordered: [ReminderPipeline.Event] = []
        ordered.reserveCapacity(events.count)
        // Where the last fix stands in `ordered`, and its time.
        var lastFix: (index: Int, time: Timestamp)?
        for event in events {
            switch event {
            case .fix(let fix):
                lastFix = (ordered.count, fix.time)
                ordered.append(event)
            case .reminder(let output):
                guard let fix = lastFix, output.time.timeIntervalSince1970 < fix.time.secondsSince1970 else {
                    ordered.append(event)
                    continue
                }
                ordered.insert(event, at: fix.index)
                lastFix = (fix.index + 1, fix.time)
            default:
                ordered.append(event)
            }
        }
        return ordered
    }

    /// Keeps back an event of a paced run after a stop: its clock stood
    /// still before it.
    private func withhold(_ event: ReminderPipeline.Event) {
        var stop = result.pacedStop ?? (time: pacedClock, reminders: 0)
        if case .reminder(.notify) = event { stop.reminders += 1 }
        result.pacedStop = stop
        result.stoppedBySignal = true
    }

    /// Sleeps until the wall clock has caught up with the feed at `seconds`,
    /// writing out what the sinks hold first; a long sleep looks for a stop
    /// every tenth of a second.
    private func pace(to seconds: Double) {
        let delay = pacer.delay(before: seconds)
        guard delay > 0 else { return }
        for sink in sinks { sink.flush() }
        let wake = Date(timeIntervalSinceNow: delay)
        while settings.stop?.isRequested != true, wake.timeIntervalSinceNow > 0 {
            Thread.sleep(forTimeInterval: min(0.1, wake.timeIntervalSinceNow))
        }
    }

    private func warn(_ message: String) {
        guard settings.reportsDiagnostics else { return }
        progress?.clear()
        Console.warn(message)
    }

    /// Reads the tasks again at the next chance instead of after the reload
    /// interval (a task was found removed from the store).
    public func requestTaskReload() { lastReload = .distantPast }

    private func reloadTasksIfDue() {
        guard let reload = settings.taskReload, pipeline != nil, Date().timeIntervalSince(lastReload) >= reload.seconds else {
            return
        }
        lastReload = Date()
        do { pipeline!.update(tasks: try reload.read()) } catch { warn("could not re-read the tasks: \(error)") }
    }
}
