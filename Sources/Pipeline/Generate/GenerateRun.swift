import FeedParsing
import Foundation
import GeoCore
import Simulation

/// `generate`'s writing: a simulation's feed to files, standard output or a
/// pseudo-terminal through the feed encoders, its truth, and a manifest
/// that makes the run citable (seed, parameters, counts, SHA-256 of each
/// output). Streaming: memory does not grow with the feed's length.
public enum GenerateRun {
    /// Writes the feed and the truth to files or standard output.
    /// - Parameters:
    ///   - parameters: every setting of the run in force, for the manifest.
    ///   - progress: drawn while the feed is written.
    /// - Throws: ``RunError`` when a file cannot be created or written.
    public static func write(
        _ simulation: FeedSimulation, to outputs: GenerateOutputs, parameters: JSONLine, progress: ProgressBar
    ) throws -> GenerateSummary {
        let started = Date()
        var summary = GenerateSummary()
        var timeline = Timeline(simulation, progress: progress)
        switch outputs.destination {
        case .standardOutput:
            summary.outputs.append(
                try writeFeed(
                    simulation, encoder: outputs.feedEncoder(), path: "-", hashing: outputs.manifest != nil, into: &summary,
                    &timeline))
        case .file(let path):
            summary.outputs.append(
                try writeFeed(
                    simulation, encoder: outputs.feedEncoder(), path: path, hashing: outputs.manifest != nil, into: &summary,
                    &timeline))
        case .folder(let folder):
            summary.outputs += try writeFeeds(
                simulation, encoder: outputs.feedEncoder(), folder: folder, hashing: outputs.manifest != nil, into: &summary,
                &timeline)
        }
        progress.clear()
        try finish(simulation, outputs, parameters: parameters, into: &summary)
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Writes the feed into a pseudo-terminal linked at `path` at `pace`
    /// times the feed's pace within `baud`'s byte budget, then the truth
    /// and manifest. Stops when the task is cancelled (Ctrl-C); the link is
    /// removed however it ends.
    /// - Throws: ``GenerateError/baudTooLow(needed:baud:pace:)`` before
    ///   anything is written when the feed does not fit the line.
    public static func writeToTerminal(
        _ simulation: FeedSimulation, outputs: GenerateOutputs, path: String, pace: Double, baud: Int, waitsForReader: Bool,
        parameters: JSONLine
    ) async throws -> GenerateSummary {
        let started = Date()
        var encoder = outputs.feedEncoder()
        let needed = neededBaud(simulation, encoder: encoder, pace: pace)
        guard needed <= baud else { throw GenerateError.baudTooLow(needed: needed, baud: baud, pace: pace) }
        let terminal = try PseudoTerminal(linkPath: path)
        defer { terminal.close() }
        var summary = GenerateSummary()
        var writer = PacedWriter(pace: pace, baudRate: baud)
        var bytes: [UInt8] = []
        encoder.appendHeader(to: &bytes)
        do {
            // Ctrl-C while no reader has come is a stop like any other, not a failure.
            if waitsForReader {
                Console.write("generate: waiting for a reader of \(path) (\(terminal.devicePath)); --no-wait starts at once")
                try await terminal.waitForReader()
                // A reader that has just opened the device may still be setting
                // it up (a serial reader flushes its input once it is raw): the
                // first fix waits for that instead of being flushed away.
                try await Task.sleep(for: .milliseconds(200))
            }
            for delivered in simulation.fixes() {
                encoder.append(delivered.fix, valid: delivered.valid, to: &bytes)
                try await writer.write(bytes, at: delivered.fix.time ?? Timestamp(nanoseconds: 0)) {
                    try await terminal.write($0)
                }
                bytes.removeAll(keepingCapacity: true)
                count(valid: delivered.valid, into: &summary)
            }
        } catch is CancellationError {
            Console.write("generate: stopped; \(summary.fixes) fixes written to \(path)")
        }
        // What closes the feed (GPX's tags), after the last fix or a stop, at once.
        bytes.removeAll()
        encoder.appendFooter(to: &bytes)
        if !bytes.isEmpty { try? await terminal.write(bytes) }
        await terminal.drain()
        try finish(simulation, outputs, parameters: parameters, into: &summary)
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// The baud rate the feed needs at `pace`: the first epoch's bytes for
    /// every device every interval, ten bits a byte (8N1).
    static func neededBaud(_ simulation: FeedSimulation, encoder: any FeedEncoder, pace: Double) -> Int {
        var encoder = encoder
        var bytes: [UInt8] = []
        guard let first = simulation.fixes().first(where: { $0.valid }) ?? simulation.fixes().first(where: { _ in true }) else {
            return 0
        }
        encoder.append(first.fix, valid: first.valid, to: &bytes)
        let perSecond = Double(bytes.count) * Double(simulation.devices.count) / simulation.delivery.interval * pace
        return Int((perSecond * 10).rounded(.up))
    }

    private static func writeFeed(
        _ simulation: FeedSimulation, encoder: some FeedEncoder, path: String, hashing: Bool,
        into summary: inout GenerateSummary, _ timeline: inout Timeline
    ) throws -> GenerateSummary.Output {
        let writer = BackgroundWriter(try HashedFileWriter(path: path, hashing: hashing))
        var encoder = encoder
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 20)
        encoder.appendHeader(to: &bytes)
        // Three threads: the simulation runs a batch ahead, this one makes
        // the fixes and encodes them, and the writer copies the last half
        // megabyte into the file. Epochs cross as plain values, cheap to
        // copy, in batches small enough for the allocator to reuse; one Fix
        // is updated for each, and the encoder is opened once.
        let feed = simulation.fixes()
        var fix = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
        for batch in BatchedSequence(feed.epochs, batchSize: 1024) {
            for epoch in batch {
                feed.update(&fix, to: epoch)
                encoder.append(fix, valid: epoch.valid, to: &bytes)
                count(valid: epoch.valid, into: &summary)
            }
            if bytes.count >= 1 << 19 {
                try writer.write(&bytes)
                timeline.show(batch.last.map { Timestamp(nanoseconds: $0.nanoseconds) })
            }
        }
        encoder.appendFooter(to: &bytes)
        try writer.write(&bytes)
        try writer.finish()
        if let start = encoder.rewrittenStart { try writer.file.overwriteStart(start) }
        return GenerateSummary.Output(
            role: "feed", path: path, bytes: writer.file.byteCount, sha256: writer.file.close())
    }

    private static func writeFeeds(
        _ simulation: FeedSimulation, encoder: any FeedEncoder, folder: String, hashing: Bool,
        into summary: inout GenerateSummary, _ timeline: inout Timeline
    ) throws -> [GenerateSummary.Output] {
        var files = try DeviceFiles(folder: folder, devices: simulation.devices, encoder: encoder, hashing: hashing)
        for delivered in simulation.fixes() {
            count(valid: delivered.valid, into: &summary)
            if try files.append(delivered.fix, valid: delivered.valid) { timeline.show(delivered.fix.time) }
        }
        return try files.finish(role: "feed")
    }

    /// Writes the truth and the manifest.
    private static func finish(
        _ simulation: FeedSimulation, _ outputs: GenerateOutputs, parameters: JSONLine,
        into summary: inout GenerateSummary
    ) throws {
        switch outputs.truth {
        case nil: break
        case .file(let path): summary.outputs.append(try writeTruth(simulation, outputs, path: path, into: &summary))
        case .folder(let folder):
            var files = try DeviceFiles(
                folder: folder, devices: simulation.devices, encoder: outputs.feedEncoder(), hashing: outputs.manifest != nil)
            for point in try simulation.truth(interval: outputs.truthInterval) {
                _ = try files.append(point, valid: true)
                summary.truthPoints += 1
            }
            summary.outputs += try files.finish(role: "truth")
        }
        if let path = outputs.manifest {
            let writer = try HashedFileWriter(path: path, hashing: false)
            try writer.write(Array(GenerateManifest.text(simulation, outputs, parameters: parameters, summary: summary).utf8))
            _ = writer.close()
        }
    }

    /// Writes the truth into one file, in its extension's format.
    private static func writeTruth(
        _ simulation: FeedSimulation, _ outputs: GenerateOutputs, path: String, into summary: inout GenerateSummary
    ) throws -> GenerateSummary.Output {
        let writer = try HashedFileWriter(path: path, hashing: outputs.manifest != nil)
        var encoder = GenerateOutputs.truthEncoder(path)
        var bytes: [UInt8] = []
        encoder.appendHeader(to: &bytes)
        for point in try simulation.truth(interval: outputs.truthInterval) {
            encoder.append(point, to: &bytes)
            summary.truthPoints += 1
            if bytes.count >= 1 << 20 {
                try writer.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        encoder.appendFooter(to: &bytes)
        try writer.write(bytes)
        if let start = encoder.rewrittenStart { try writer.overwriteStart(start) }
        return GenerateSummary.Output(role: "truth", path: path, bytes: writer.byteCount, sha256: writer.close())
    }

    private static func count(valid: Bool, into summary: inout GenerateSummary) {
        summary.fixes += 1
        if !valid { summary.invalid += 1 }
    }
}

/// The progress of a generation: the feed clock between the earliest path
/// start and the latest path end.
private struct Timeline {
    let start: Double
    let length: Double
    let progress: ProgressBar

    init(_ simulation: FeedSimulation, progress: ProgressBar) {
        start = simulation.devices.map(\.path.start.secondsSince1970).min() ?? 0
        length = max(1e-9, (simulation.devices.map(\.path.end.secondsSince1970).max() ?? 0) - start)
        self.progress = progress
    }

    func show(_ time: Timestamp?) {
        guard progress.enabled, let time else { return }
        progress.show("generate", fraction: (time.secondsSince1970 - start) / length)
    }
}

/// Why `generate` cannot write what was asked.
public enum GenerateError: Error, Equatable, CustomStringConvertible {
    /// The feed needs more than the line's baud rate at this pace.
    case baudTooLow(needed: Int, baud: Int, pace: Double)

    public var description: String {
        switch self {
        case .baudTooLow(let needed, let baud, let pace):
            let standard = [4800, 9600, 19200, 38400, 57600, 115_200, 230_400].first { $0 >= needed }
            return "at --pace \(pace == 1 ? "realtime" : String(pace)) this feed needs \(needed) baud "
                + "(\(needed / 10) bytes/s at 8N1) and --baud \(baud) carries \(baud / 10) bytes/s: "
                + (standard.map { "use --baud \($0), " } ?? "") + "a slower --pace, a longer --interval or fewer --devices"
        }
    }
}
