import ArgumentParser
import Dispatch
import FeedParsing
import Foundation
import Geofencing
import Pipeline
import Recurrence
import TaskStore

/// `repeat-sim live`: the pipeline on a live feed, with the receiver's time
/// as the clock.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run the reminders on a live GPS feed: a serial receiver, gpsd, or standard input.",
        discussion: """
            The same stages as replay, fed by --device TTY [--baud N], --gpsd
            HOST[:PORT] or - (standard input, e.g. cat /dev/ttyACM0 | repeat-sim live -).
            The receiver's time is the clock. Tasks come from the store (--db) unless
            --tasks gives a file; with the store, every reminder is also written to its
            notification log, and the tasks are read again every --reload seconds, so
            a `task done` from another shell takes effect without a restart (places
            are read once at start).

            A receiver that is unplugged, sends garbage or goes silent is reported on
            stderr and reconnected. Ctrl-C (or SIGTERM) stops reading, flushes the
            output, prints the summary and exits 0.

            Examples:
              repeat-sim live --device /dev/ttyACM0 --baud 9600
              repeat-sim live --gpsd localhost --json --exec 'notify-send "$REPEAT_TITLE"'
            """
    )

    @Argument(help: ArgumentHelp("- reads the feed from standard input.", valueName: "-"))
    var input: String?

    @OptionGroup var live: LiveInputOptions

    @Option(help: ArgumentHelp("Tasks file (JSON) instead of the store's tasks.", valueName: "file"))
    var tasks: String?

    @Option(help: ArgumentHelp("Regions to watch besides the tasks' places: CSV or GeoJSON.", valueName: "file"))
    var regions: String?

    @OptionGroup var feedOptions: FeedOptions

    @Flag(help: "Print JSON lines on stdout instead of a table.")
    var json = false

    @Flag(help: "Print the raw geofence transitions (enter, exit, dwell, cross).")
    var transitions = false

    @Option(help: ArgumentHelp("Seconds between re-reading the store's tasks.", valueName: "seconds"))
    var reload: Double = 5

    @OptionGroup var store: StoreOptions
    @OptionGroup var reminder: ReminderOptions
    @OptionGroup var geofence: GeofenceOptions

    func validate() throws {
        var problems = feedOptions.problems() + geofence.problems() + reminder.problems()
        switch (input, live.input) {
        case (nil, nil): problems.append("give a live input: --device TTY, --gpsd HOST[:PORT], or - for standard input")
        case (.some, .some): problems.append("give one live input: - or --device/--gpsd, not both")
        case (.some(let text), nil) where text != "-":
            problems.append("live reads - (standard input), --device or --gpsd; replay reads files like \(text)")
        default: break
        }
        if !(reload > 0) { problems.append("--reload must be a positive number of seconds") }
        if let first = problems.first { throw ValidationError(first) }
    }

    func run() async throws {
        let database = tasks == nil ? try store.open() : nil
        let taskList = try tasks.map { try TaskFile.decode(readInput($0)) } ?? database?.tasks() ?? []
        var bulk: [Region] = []
        if let regions {
            let loaded = LoadedRegions.load([UInt8](try readInput(regions)), source: regions)
            for diagnostic in loaded.diagnostics { Diagnostics.write("\(diagnostic)") }
            bulk = loaded.regions
        }
        if taskList.isEmpty, bulk.isEmpty {
            Diagnostics.warn("no tasks and no regions to watch: add tasks (`task add`, or --tasks FILE) or --regions FILE")
        }
        var defaultFormat: FeedFormat?
        if case .gpsd = live.input { defaultFormat = .gpsd }
        let run = LiveRun(
            tasks: taskList, regions: bulk, reminder: reminder, geofence: geofence,
            printing: .init(transitions: transitions, reminders: true, explain: reminder.explain, json: json),
            database: database, reload: reload, format: feedOptions.format.format ?? defaultFormat,
            decoding: feedOptions.decodingOptions(),
            name: live.input?.description ?? "<stdin>")
        let events = live.openSource()?.events ?? Self.standardInputEvents()
        let consumer = Task { try await run.consume(events) }
        let stop = StopSignal { consumer.cancel() }
        defer { stop.release() }
        Diagnostics.write(try await consumer.value)
    }

    /// Standard input as live events, read on its own thread so that a
    /// blocking read never holds one of the cooperative pool's threads.
    static func standardInputEvents() -> AsyncThrowingStream<LiveSourceEvent, any Error> {
        AsyncThrowingStream { continuation in
            let reader = Thread {
                do {
                    try FileByteReader(path: "-").forEachChunk { chunk in continuation.yield(.bytes(Array(chunk))) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            reader.start()
        }
    }
}

/// One live run's settings, and the loop that feeds the stages.
struct LiveRun: Sendable {
    let tasks: [RecurringTask]
    let regions: [Region]
    let reminder: ReminderOptions
    let geofence: GeofenceOptions
    let printing: ReplaySession.Printing
    let database: TaskDatabase?
    let reload: Double
    let format: FeedFormat?
    let decoding: FeedDecodingOptions
    let name: String

    /// Decodes `events` through the stages until they end or the task is
    /// cancelled (Ctrl-C); returns the summary line.
    func consume(_ events: AsyncThrowingStream<LiveSourceEvent, any Error>) async throws -> String {
        var session = try ReplaySession(
            tasks: tasks, regions: regions, reminder: reminder, geofence: geofence, printing: printing, geojson: nil)
        session.log = database.map { ($0, Set(tasks.map(\.id))) }
        let decoder = makeFeedDecoder(format: format, options: decoding)
        var lastReload = Date()
        var batch = FeedBatch()
        do {
            for try await event in events {
                switch event {
                case .bytes(let chunk):
                    chunk.withUnsafeBytes { decoder.decode($0, into: &batch) }
                case .status(let status):
                    Diagnostics.write("repeat-sim: \(status)")
                }
                for diagnostic in batch.diagnostics where diagnostic.isInputError {
                    Diagnostics.write(diagnostic.located(in: name))
                }
                if let database, Date().timeIntervalSince(lastReload) >= reload {
                    lastReload = Date()
                    do { session.update(tasks: try database.tasks()) } catch { Diagnostics.warn("could not re-read the tasks: \(error)") }
                }
                session.push(batch.fixes, feed: name)
                session.output.flush()
                batch.removeAll()
            }
        } catch is CancellationError {
            // Ctrl-C: fall through to the flush below.
        }
        decoder.finish(into: &batch)
        session.push(batch.fixes, feed: name)
        session.finish()
        return session.summary("live")
    }
}

/// Ctrl-C and SIGTERM as a request to stop: `onStop` runs once (the live
/// loop ends, flushes and exits 0); a second signal ends the process at once.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false
    private var sources: [any DispatchSourceSignal] = []
    private let onStop: @Sendable () -> Void

    init(onStop: @escaping @Sendable () -> Void) {
        self.onStop = onStop
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops listening for the signals.
    func release() {
        for source in sources { source.cancel() }
    }

    private func request(_ number: Int32) {
        let already = lock.withLock { () -> Bool in
            defer { stopRequested = true }
            return stopRequested
        }
        if already { exit(130) }
        Diagnostics.write("repeat-sim: stopping (signal \(number)); a second one ends at once")
        onStop()
    }
}
