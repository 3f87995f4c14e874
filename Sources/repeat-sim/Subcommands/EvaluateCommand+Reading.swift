import ArgumentParser
import Evaluation
import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Pipeline

/// How `evaluate` reads recorded FEEDs and their truth: streamed, every
/// setting detecting as the feed is decoded and the truth scanned beside
/// it on a thread of its own; read once more for a report's detail; what
/// comes through a pipe copied to be read again.
extension EvaluateCommand {
    /// Copies of the FEEDs and truth tracks that come through a pipe
    /// (standard input, `<(zcat …)`) and may be read twice: a truth track
    /// always (should its points go back in time, it is read again to be
    /// kept and sorted), a FEED for --report.
    func pipeSpools() throws -> [String: FeedSpool] {
        guard truth.scenario == nil else { return [:] }
        let report = evaluation.report != nil
        let truthPaths = truth.events == nil ? truth.tracks : []
        let purposes =
            truthPaths.map { ($0, "in case its points go back in time" + (report ? ", and for --report" : "")) }
            + (report ? feeds.map { ($0, "for --report") } : [])
        var spools: [String: FeedSpool] = [:]
        for (path, purpose) in purposes where !isRegularFile(path) {
            do { spools[path] = try FeedSpool(feed: path, purpose: purpose) } catch { throw EvaluateFailure("\(error)") }
        }
        return spools
    }

    /// The truth and detections of the recorded FEEDs, every setting
    /// detecting while they are decoded (with `shard`, on that shard's
    /// devices only): the feed is not kept, nor the truth tracks unless
    /// they come out of time order, so memory stays flat in their length
    /// (what comes through a pipe is copied into its spool of `spools`).
    func streamedFeed(
        runner: EvaluationRunner, scoring: FeedEvaluation, spools: [String: FeedSpool], shard: EvaluationShard? = nil
    ) throws -> StreamedFeed {
        // The truth is decoded (and scanned) on a second thread meanwhile.
        let truthPaths = truth.events == nil ? truth.tracks : []
        let truthShowsProgress = Self.isLonger(truthPaths, than: feeds)
        let truthTracks = TruthDecoding(
            paths: truthPaths, scanning: scoring, shard: shard, strict: strict, verbose: feedOptions.verbose,
            jobs: runner.jobs, progress: truthShowsProgress ? "truth" : nil, spools: spools)
        let detection = SweepDetection(evaluation: scoring, settings: runner.settings, jobs: runner.jobs, shard: shard)
        try Self.decode(
            feeds, options: feedOptions.decodingOptions(), format: feedOptions.format.format, strict: strict,
            verbose: feedOptions.verbose, progress: truthShowsProgress ? nil : "evaluate", jobs: runner.jobs,
            spools: spools, into: detection)
        guard detection.hasTimedFix else { throw noTimedFix }
        let feedDevices = detection.feedDevices
        let scored: FeedEvaluation.Truth
        var keptTracks: [TruthTrackPoints]?
        if truth.events != nil {
            scored = scoring.truth(labelled: try labelledEvents(regions: scoring.regions), feedDevices: feedDevices)
        } else {
            switch try truthTracks.decoded() {
            case .tracks(let tracks):
                guard tracks.contains(where: { $0.points.count > 1 }) else { throw noTruthTrack }
                scored = scoring.truth(of: tracks, feedDevices: feedDevices)
                if evaluation.report != nil { keptTracks = tracks }
            case .scanned(var scanner):
                guard scanner.hasSegment else { throw noTruthTrack }
                scored = scoring.truth(scanned: &scanner, feedDevices: feedDevices)
            }
        }
        warnUnmatched(scored.devices, feedDevices: feedDevices, shard: shard)
        let detections = detection.detections(devices: scored.devices)
        return StreamedFeed(
            fixes: detection.fixes, feedDevices: feedDevices, truth: scored, detections: detections,
            span: detection.span.value, firstPosition: detection.firstPosition, keptTracks: keptTracks)
    }

    /// What the report's detail needs of the FEEDs and their truth, read
    /// once more (from `spools` what came through a pipe) into `plan`'s
    /// gatherers (the truth on a thread of its own, or from `keptTracks`
    /// when they were kept), quietly: their diagnostics were printed on the
    /// first read.
    func gather(
        _ plan: ReportPlan, keptTracks: [TruthTrackPoints]?, spools: [String: FeedSpool], jobs: Int
    ) throws -> (fixes: FixEvidence, truth: TruthEvidence) {
        let (fixes, points) = plan.gatherers()
        let truthPaths = truth.events == nil && keptTracks == nil ? truth.tracks : []
        let truthShowsProgress = Self.isLonger(truthPaths, than: feeds, spools: spools)
        let gatheredTruth = Concurrently { [strict] in
            let gathering = EachFix(points)
            for track in keptTracks ?? [] { gathering.taker.add(track) }
            guard !truthPaths.isEmpty else { return gathering.taker }
            try Self.decode(
                truthPaths, options: FeedDecodingOptions(), format: nil, strict: strict, verbose: false,
                progress: truthShowsProgress ? "report" : nil, reportsDiagnostics: false, jobs: jobs, spools: spools,
                into: gathering)
            // It came in time order when it was scanned.
            guard gathering.taker.isInTimeOrder else {
                throw EvaluateFailure(
                    "\(truthPaths.joined(separator: ", ")) changed while evaluate read it: no report written")
            }
            return gathering.taker
        }
        let gathering = EachFix(fixes)
        try Self.decode(
            feeds, options: feedOptions.decodingOptions(), format: feedOptions.format.format, strict: strict,
            verbose: false, progress: truthShowsProgress ? nil : "report", reportsDiagnostics: false,
            jobs: jobs, spools: spools, into: gathering)
        return (gathering.taker, try gatheredTruth.value())
    }

    /// The events of --truth-events; its problems are reported and skipped,
    /// its conflicts (overlapping visits) warned of and kept. Events of a region that is not among `regions` are kept (they are
    /// misses no setting can find) with a warning naming the region.
    private func labelledEvents(regions: [Region]) throws -> [ScoredEvent] {
        guard let eventsFile = truth.events else { return [] }
        let file = TruthEventsFile(bytes: [UInt8](try readInput(eventsFile)))
        for problem in file.problems {
            Console.write("\(eventsFile): \(problem); skipped")
            if strict { throw ExitCode(2) }
        }
        guard !file.events.isEmpty else { throw EvaluateFailure("\(eventsFile): no true event to score against") }
        for conflict in file.conflicts.prefix(5) {
            Console.warn("\(eventsFile): \(conflict): both are kept, and one of the two can only be missed")
        }
        if file.conflicts.count > 5 { Console.warn("\(eventsFile): and \(file.conflicts.count - 5) more such events") }
        warnOfUnknownRegions(in: file.events, regions: regions, file: eventsFile)
        return file.events
    }

    /// Warns of the regions that `events` name and `regions` lack, five at
    /// most (with the name meant, among up to 10 000 regions: the same but
    /// for case, or an edit away for every three letters, two at most),
    /// then how many more.
    private func warnOfUnknownRegions(in events: [ScoredEvent], regions: [Region], file: String) {
        let names = Set(regions.map(\.id))
        var unknown: [String: Int] = [:]
        for event in events where !names.contains(event.region) { unknown[event.region, default: 0] += 1 }
        let sorted = unknown.sorted { $0.key < $1.key }
        let candidates = names.count <= 10_000 ? names.sorted() : []
        for (region, count) in sorted.prefix(5) {
            let meant = Spelling.suggestion(for: region, in: candidates, maximumDistance: min(2, region.count / 3))
            Console.warn(
                "\(file): no region \"\(region)\" is evaluated\(meant.map { " (did you mean \"\($0)\"?)" } ?? ""); "
                    + "its \(count) true event\(count == 1 ? "" : "s") can only be missed")
        }
        if sorted.count > 5 { Console.warn("\(file): and \(sorted.count - 5) more regions that are not evaluated") }
    }

    /// The failure of FEEDs that carry no fix with a time.
    private var noTimedFix: EvaluateFailure {
        EvaluateFailure(
            "no fix with a time in \(feeds.joined(separator: ", ")): nothing to score (a route without times can be "
                + "driven with `repeat-sim generate ROUTE --profile walk --out feed.nmea --truth truth.csv`)")
    }

    /// The failure of a truth without a segment to find events on.
    private var noTruthTrack: EvaluateFailure {
        EvaluateFailure(
            "no truth track of two or more timed points in \(truth.tracks.joined(separator: ", ")): "
                + "write one with `repeat-sim generate … --truth FILE`")
    }

    /// Warns of the feed devices without truth (with `shard`, its own),
    /// and, unsharded, of the truth devices without a fix in the feed
    /// (five, then how many more): every true event of theirs is a miss.
    private func warnUnmatched(_ matching: DeviceMatching, feedDevices: [String?], shard: EvaluationShard?) {
        let unmatched = matching.unmatched.filter { shard?.holds(feedDevice: $0) ?? true }
        for device in unmatched {
            Console.warn("no truth for device \(device ?? "(unnamed)"); its detections are not scored")
        }
        if let hint = strayTruthHint(unmatched: unmatched) { Console.warn(hint) }
        guard shard == nil else { return }
        let fed = Set(feedDevices.compactMap { matching.truthDevice(of: $0) })
        let unfed = matching.truth.filter { !fed.contains($0) }
        for device in unfed.prefix(5) {
            Console.warn("no fix in the feed for truth device \(device ?? "(unnamed)"); its true events count as missed")
        }
        if unfed.count > 5 { Console.warn("and \(unfed.count - 5) more truth devices without a fix in the feed") }
    }

    /// For FEEDs named after their files that found no truth and lie
    /// beside a `--truth` file of their kind: what `--truth FOLDER/*`
    /// gives, where the shell's files after the first are FEEDs. `nil`
    /// when none does.
    private func strayTruthHint(unmatched: [String?]) -> String? {
        let names = Set(unmatched.compactMap { $0 })
        func folder(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
        func kind(_ path: String) -> String { (path as NSString).pathExtension.lowercased() }
        for track in truth.tracks where track != "-" {
            let strays = feeds.filter {
                names.contains(($0 as NSString).lastPathComponent) && folder($0) == folder(track) && kind($0) == kind(track)
            }
            guard !strays.isEmpty else { continue }
            let shown = strays.prefix(3).joined(separator: ", ") + (strays.count > 3 ? " and \(strays.count - 3) more" : "")
            let place = folder(track).isEmpty ? "." : folder(track)
            let one = strays.count == 1
            return "\(shown) lie\(one ? "s" : "") beside --truth \(track), and \(one ? "is" : "are") read as "
                + "FEED\(one ? "" : "s"): --truth takes one file each time it is given, so a shell's "
                + "\(place)/* gives it the first alone; give the folder instead: --truth \(place)"
        }
        return nil
    }

    /// Whether the files `paths` are larger than `others` together, so
    /// that reading them takes longer and their progress is the one to
    /// show; `false` when any size is unknown (standard input, a pipe not
    /// yet copied into its spool of `spools`).
    static func isLonger(_ paths: [String], than others: [String], spools: [String: FeedSpool] = [:]) -> Bool {
        guard !paths.isEmpty, let length = FeedRun.totalBytes(of: paths, spools: spools),
            let otherLength = FeedRun.totalBytes(of: others, spools: spools)
        else { return false }
        return length > otherLength
    }

    /// Every fix of `paths`, decoded once, devices named after their files
    /// when there are several; `progress` labels the progress line, if any;
    /// a path with a spool of `spools` is copied into it, or read from it.
    static func decode(
        _ paths: [String], options: FeedDecodingOptions, format: FeedFormat?, strict: Bool, verbose: Bool,
        progress: String?, reportsDiagnostics: Bool = true, jobs: Int, spools: [String: FeedSpool],
        into collector: any RunSink
    ) throws {
        var settings = RunSettings(label: progress ?? "evaluate", format: format, decoding: options)
        settings.strict = strict
        settings.verbose = verbose
        settings.namesDevicesAfterFiles = true
        settings.showsProgress = progress != nil
        settings.reportsDiagnostics = reportsDiagnostics
        settings.jobs = jobs
        settings.spools = spools
        let result = FeedRun(settings: settings, stage: .decode, sinks: [collector]).run(files: paths)
        if result.stoppedAtMalformedRecord { throw ExitCode(2) }
        if !result.unreadable.isEmpty { throw ExitCode(1) }
    }
}

/// What ``EvaluateCommand``'s streamed read of the FEEDs made: the truth
/// and detections to score, and what the report's detail needs to read
/// them again.
struct StreamedFeed {
    /// Fixes decoded.
    var fixes: Int
    /// The feed's devices in order of their first fix.
    var feedDevices: [String?]
    var truth: FeedEvaluation.Truth
    /// What each setting detected, in the rows' order.
    var detections: [FeedEvaluation.Detection]
    /// The feed's first and last fix time.
    var span: (start: Timestamp, end: Timestamp)
    /// Where its first fix was.
    var firstPosition: Coordinate?
    /// The truth tracks, when they were kept (out of time order) and a
    /// report will read them.
    var keptTracks: [TruthTrackPoints]?

    /// What was read, for the summary.
    var described: String { "\(fixes) fixes of \(feedDevices.count) device(s)" }
}

/// The truth decoded on a thread of its own, while the feed is decoded on
/// the caller's: its tracks kept, or scanned for their true events as
/// they come.
private final class TruthDecoding: @unchecked Sendable {
    /// What the decoding made.
    enum Decoded {
        /// The tracks, kept.
        case tracks([TruthTrackPoints])
        /// The true events and coverage, found without keeping the tracks.
        case scanned(TruthScanner)
    }

    // Written once by the thread before `done` is signalled, read after.
    private var result: Result<Decoded, any Error> = .success(.tracks([]))
    private let done = DispatchSemaphore(value: 0)

    /// Starts decoding `paths` (none: nothing to do), with a progress line
    /// labelled `progress` if given (the truth is the longer read). The
    /// tracks are scanned for the regions of `evaluation` (with `shard`,
    /// those of its devices; see ``TruthScanner``); should a
    /// device's points go back in time, the files are decoded again
    /// (quietly: their diagnostics were printed; a pipe from its spool of
    /// `spools`) and the tracks kept, to be put in time order.
    init(
        paths: [String], scanning evaluation: FeedEvaluation, shard: EvaluationShard?, strict: Bool, verbose: Bool,
        jobs: Int, progress: String?, spools: [String: FeedSpool]
    ) {
        guard !paths.isEmpty else {
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            result = Result {
                let scanner = EachFix(TruthScanner(evaluation: evaluation, shard: shard))
                try EvaluateCommand.decode(
                    paths, options: FeedDecodingOptions(), format: nil, strict: strict, verbose: verbose,
                    progress: progress, jobs: jobs, spools: spools, into: scanner)
                if scanner.taker.isInTimeOrder { return .scanned(scanner.taker) }
                let collector = EachFix(TruthTrackBuilder())
                try EvaluateCommand.decode(
                    paths, options: FeedDecodingOptions(), format: nil, strict: strict, verbose: verbose, progress: progress,
                    reportsDiagnostics: false, jobs: jobs, spools: spools, into: collector)
                return .tracks(collector.taker.finish())
            }
            done.signal()
        }
    }

    /// The truth, once decoded.
    func decoded() throws -> Decoded {
        done.wait()
        return try result.get()
    }
}

/// What takes a feed's fixes one by one: a report's gatherers, a truth
/// scanner or track builder.
private protocol FixTaker {
    mutating func add(_ fix: Fix)
}

extension FixEvidence: FixTaker {}
extension TruthEvidence: FixTaker {}
extension TruthScanner: FixTaker {}
extension TruthTrackBuilder: FixTaker {}

/// Hands every decoded fix to `taker`, in the feed's order.
private final class EachFix<Taker: FixTaker>: RunSink {
    var taker: Taker
    init(_ taker: Taker) { self.taker = taker }
    func decoded(_ batch: FeedBatch, feed: String) {
        for fix in batch.fixes { taker.add(fix) }
    }
}
