import Foundation
import GeoCore
import Pipeline
import TestSupport
import Testing

/// A real receiver's log from the corpus, cut into the lines a paced writer
/// sends, with seeded binary noise between some of them.
struct PacedNMEA {
    /// The pieces to write, in order: NMEA lines (with their own line
    /// endings) and noise runs.
    let pieces: [[UInt8]]
    /// The NMEA sentences among the pieces, in order.
    let sentences: [[UInt8]]

    /// Reads `log` (a corpus path under `nmea/gpsd/`), drops its `#` comment
    /// lines and inserts 1–24 random bytes after about one sentence in five.
    init(log: String, seed: UInt64) throws {
        let path = RepositoryPaths.corpus + "/nmea/gpsd/" + log
        guard let data = FileManager.default.contents(atPath: path) else {
            throw POSIXError(ENOENT, "read corpus log \(path) (is ../shared/corpus beside the repository?)")
        }
        var random = SeededRandom(seed: seed)
        var pieces: [[UInt8]] = []
        var sentences: [[UInt8]] = []
        for line in Self.lines(of: Array(data)) where line.first == UInt8(ascii: "$") {
            pieces.append(line)
            sentences.append(line)
            if Int.random(in: 0..<5, using: &random) == 0 {
                let length = Int.random(in: 1...24, using: &random)
                pieces.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
        }
        self.pieces = pieces
        self.sentences = sentences
    }

    /// All the bytes, as the reader should receive them.
    var bytes: [UInt8] { pieces.flatMap { $0 } }

    /// Splits after each LF, keeping the line endings.
    private static func lines(of bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count { lines.append(Array(bytes[start...])) }
        return lines
    }

    /// Writes the first half of the pieces (2 ms apart, through a
    /// ``PacedWriter``), waits until the reader has all of it and has
    /// reported the silence that follows (the pause), then writes the rest.
    /// Returns the size of the first half.
    func send(pausingFor recorder: EventRecorder, write: ([UInt8]) async throws -> Void) async throws -> Int {
        let half = pieces.count / 2
        try await Self.paced(pieces[..<half], write: write)
        let firstHalf = pieces[..<half].reduce(0) { $0 + $1.count }
        try await recorder.waitUntil("the first half of the feed") { $0.byteCount >= firstHalf }
        try await recorder.waitUntil("a silence warning during the pause") { Self.silenceAfter(bytes: firstHalf, in: $0) }
        try await Self.paced(pieces[half...], write: write)
        try await recorder.waitUntil("the whole feed") { $0.byteCount >= bytes.count }
        return firstHalf
    }

    /// Writes pieces 2 ms of feed time apart, in real time, on a fast line.
    private static func paced(_ pieces: ArraySlice<[UInt8]>, write: ([UInt8]) async throws -> Void) async throws {
        var writer = PacedWriter(pace: 1, baudRate: 1_000_000)
        for (index, piece) in pieces.enumerated() {
            try await writer.write(piece, at: Timestamp(nanoseconds: Int64(index) * 2_000_000), to: write)
        }
    }

    /// How many of `sentences` occur in `bytes` one after the other, in order.
    static func sentencesInOrder(_ sentences: [[UInt8]], in bytes: [UInt8]) -> Int {
        var searchFrom = bytes.startIndex
        var found = 0
        for sentence in sentences {
            guard let range = bytes[searchFrom...].firstRange(of: sentence) else { break }
            searchFrom = range.upperBound
            found += 1
        }
        return found
    }

    /// Whether a silence warning follows exactly `bytes` bytes, before any more arrive.
    static func silenceAfter(bytes: Int, in events: [LiveSourceEvent]) -> Bool {
        var count = 0
        for event in events {
            switch event {
            case .bytes(let chunk): count += chunk.count
            case .status(let status) where status.isSilent && count == bytes: return true
            case .status, .quiet: continue
            }
        }
        return false
    }
}
