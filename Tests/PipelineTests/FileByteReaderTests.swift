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

    @Test("a pipe read through a spool is copied as it comes; the next read takes the copy")
    func spoolCopiesAPipe() throws {
        let path = RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Written in pieces of 777 bytes, so that reads return short chunks.
        let writer = Thread { [ends] in
            var offset = 0
            while offset < expected.count {
                let piece = Array(expected[offset..<min(offset + 777, expected.count)])
                let written = piece.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                offset += written
            }
            close(ends[1])
        }
        writer.start()
        defer { close(ends[0]) }
        let spool = try FeedSpool(feed: "/dev/fd/\(ends[0])", purpose: "for a test")
        #expect(spool.completeSize == nil)
        #expect(try bytes(of: spool.feed, spool: spool) == expected)
        #expect(spool.completeSize == expected.count)
        // The pipe is empty now: these bytes are the copy's, twice over.
        #expect(try bytes(of: spool.feed, spool: spool) == expected)
        #expect(try bytes(of: spool.feed, spool: spool) == expected)
        var read = 0
        try FeedFileDecoding.decode(path: spool.feed, format: nil, options: .init(), spool: spool) { batch in
            read += batch.fixes.count
            return true
        }
        #expect(read == 68)
    }

    @Test("a read that stops short leaves the spool incomplete, and the next read copies from the start")
    func spoolRestartsAfterAnIncompleteRead() throws {
        let path = RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let spool = try FeedSpool(feed: path, purpose: "for a test")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try FileByteReader(path: path, chunkSize: 1000, spool: spool).forEachChunk { _ in throw Stop() }
        }
        #expect(spool.completeSize == nil)
        #expect(try bytes(of: path, spool: spool, chunkSize: 1000) == expected)
        #expect(spool.completeSize == expected.count)
        #expect(try bytes(of: "/nonexistent/x.nmea", spool: spool) == expected)
    }

    @Test("a pipe is widened to hold a whole chunk, as far as the system allows")
    func pipeHoldsAChunk() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let limit = try #require(
            Int(
                try String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        let reader = try FileByteReader(path: "/dev/fd/\(ends[0])", chunkSize: 1 << 20)
        // F_GETPIPE_SZ (64 KiB by default).
        #expect(Int(fcntl(ends[0], 1032)) >= min(1 << 20, limit))
        withExtendedLifetime(reader) {}
    }

    /// The bytes a reader of `path` through `spool` hands on.
    private func bytes(of path: String, spool: FeedSpool, chunkSize: Int = 4096) throws -> [UInt8] {
        var received: [UInt8] = []
        try FileByteReader(path: path, chunkSize: chunkSize, spool: spool).forEachChunk { received.append(contentsOf: $0) }
        return received
    }
}
