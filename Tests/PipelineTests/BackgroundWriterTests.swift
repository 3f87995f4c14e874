import Foundation
import Pipeline
import TestSupport
import Testing

/// `generate`'s writing thread: every buffer in order, each handed back
/// empty, and a failed write reported rather than lost.
@Suite struct BackgroundWriterTests {
    @Test("Buffers reach the file in order, counted and hashed, and come back empty")
    func order() throws {
        let path = temporaryDirectory("repeat-background-writer") + "/out.bin"
        let writer = BackgroundWriter(try HashedFileWriter(path: path, hashing: true), depth: 1)
        var expected: [UInt8] = []
        var buffer: [UInt8] = []
        for index in 0..<50 {
            buffer.append(contentsOf: (0..<(index * 37 % 500)).map { UInt8(truncatingIfNeeded: $0 &+ index) })
            expected += buffer
            try writer.write(&buffer)
            #expect(buffer.isEmpty)
        }
        try writer.finish()
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(writer.file.byteCount == expected.count)
        var hash = SHA256()
        hash.update(expected)
        #expect(writer.file.close() == hash.hexDigest())
    }

    @Test("A failed write is thrown by a later call")
    func failure() throws {
        let writer = BackgroundWriter(try HashedFileWriter(path: "/dev/full", hashing: false))
        var buffer = [UInt8](repeating: 0x41, count: 4096)
        try writer.write(&buffer)
        #expect(throws: RunError.self) { try writer.finish() }
        _ = writer.file.close()
    }
}
