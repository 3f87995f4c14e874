import FeedParsing
import Foundation
import Pipeline
import TestSupport
import Testing

@Suite("File byte reader")
struct FileByteReaderTests {
    @Test("a file arrives whole, in chunks of the requested size")
    func chunks() throws {
        let path = RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let reader = try FileByteReader(path: path, chunkSize: 1000)
        var received: [UInt8] = []
        var largest = 0
        try reader.forEachChunk { chunk in
            received.append(contentsOf: chunk)
            largest = max(largest, chunk.count)
        }
        #expect(received == expected)
        #expect(largest == 1000)
    }

    @Test("a missing file and a directory are clear errors")
    func errors() {
        #expect(throws: FileReadError.self) { try FileByteReader(path: "/nonexistent/x.nmea") }
        #expect(throws: FileReadError.self) { try FileByteReader(path: RepositoryPaths.tracks) }
    }

    @Test("FeedFileDecoding hands each chunk's fixes on, then the last epoch")
    func feedFileDecoding() throws {
        let path = RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea")
        var batches = 0
        var fixes = 0
        let decoder = try FeedFileDecoding.decode(path: path, format: nil, options: .init(), chunkSize: 512) { batch in
            batches += 1
            fixes += batch.fixes.count
            return true
        }
        #expect(decoder.format == .nmea)
        #expect(fixes == 68)
        #expect(batches > 10)
    }
}
