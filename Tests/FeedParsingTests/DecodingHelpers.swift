import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// Decodes `text` in one chunk with a fresh decoder of `format` (`nil`: sniff).
func decode(_ text: String, format: FeedFormat?, options: FeedDecodingOptions = .init()) -> FeedBatch {
    decode(Array(text.utf8), format: format, options: options)
}

/// Decodes `bytes` in one chunk with a fresh decoder of `format` (`nil`: sniff).
func decode(_ bytes: [UInt8], format: FeedFormat?, options: FeedDecodingOptions = .init()) -> FeedBatch {
    makeFeedDecoder(format: format, options: options).decodeAll(bytes)
}

/// Decodes `bytes` split at the given chunk sizes (the last chunk takes the rest).
func decode(
    _ bytes: [UInt8], format: FeedFormat?, chunkSizes: some Sequence<Int>, options: FeedDecodingOptions = .init()
) -> FeedBatch {
    let decoder = makeFeedDecoder(format: format, options: options)
    var batch = FeedBatch()
    var offset = 0
    for size in chunkSizes where offset < bytes.count {
        let end = min(bytes.count, offset + size)
        bytes[offset..<end].withUnsafeBytes { decoder.decode($0, into: &batch) }
        offset = end
    }
    if offset < bytes.count { bytes[offset...].withUnsafeBytes { decoder.decode($0, into: &batch) } }
    decoder.finish(into: &batch)
    return batch
}

/// Checks `fixes` against GPSBabel's `unicsv` reading at `path` of a
/// file it wrote (`No,Latitude,Longitude,Altitude,Speed,Date,Time`): the
/// same times and count, positions to GPSBabel's 6 decimals, heights within
/// `heightTolerance` and speeds to its 0.01 m/s.
func expectGPSBabelReading(
    _ fixes: [Fix], at path: String, heightTolerance: Double, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let reference = text.split(whereSeparator: \.isNewline).dropFirst().map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    try #require(fixes.count == reference.count, sourceLocation: sourceLocation)
    for (fix, row) in zip(fixes, reference) {
        let time = row[5].replacingOccurrences(of: "/", with: "-") + "T" + row[6] + "Z"
        #expect(fix.time.map(RFC3339.format) == time, sourceLocation: sourceLocation)
        #expect(abs(fix.coordinate.latitude - Double(row[1])!) <= 5.01e-7, "\(row)", sourceLocation: sourceLocation)
        #expect(abs(fix.coordinate.longitude - Double(row[2])!) <= 5.01e-7, "\(row)", sourceLocation: sourceLocation)
        #expect(abs(fix.elevation! - Double(row[3])!) <= heightTolerance, "\(row)", sourceLocation: sourceLocation)
        let speed = row[4].isEmpty ? fix.speed == nil : abs(fix.speed! - Double(row[4])!) <= 0.00501
        #expect(speed, "\(row)", sourceLocation: sourceLocation)
    }
}

/// The bytes of a file.
func readBytes(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    return [UInt8](data)
}

/// One row of the corpus MANIFEST.tsv.
struct CorpusEntry: CustomStringConvertible, Sendable {
    let path: String
    let format: FeedFormat

    var description: String { path }
    var absolutePath: String { RepositoryPaths.corpus + "/" + path }

    /// Every input listed in `../shared/corpus/MANIFEST.tsv`.
    static let all: [CorpusEntry] = {
        guard let text = try? String(contentsOfFile: RepositoryPaths.corpus + "/MANIFEST.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count > 2 else { return nil }
            let path = String(columns[0])
            let format: FeedFormat =
                path.hasPrefix("gpx/") ? .gpx : path.hasPrefix("csv/") ? .csv : .nmea
            return CorpusEntry(path: path, format: format)
        }
    }()
}

/// A compact, comparable text of a fix (every field, full precision).
func describe(_ fix: Fix) -> String {
    var bytes: [UInt8] = []
    FixJSONEncoder.append(fix, to: &bytes)
    return String(decoding: bytes.dropLast(), as: UTF8.self)
}
