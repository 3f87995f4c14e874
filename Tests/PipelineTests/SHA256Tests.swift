import Foundation
import Pipeline
import TestSupport
import Testing

@Suite struct SHA256Tests {
    func digest(_ text: String) -> String {
        var hash = SHA256()
        hash.update(Array(text.utf8))
        return hash.hexDigest()
    }

    @Test func knownVectors() {
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func chunkedUpdatesGiveTheDigestOfTheWholeAndAgreeWithSha256sum() throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 3) }
        var whole = SHA256()
        whole.update(bytes)
        var chunked = SHA256()
        var start = 0
        for size in [1, 55, 56, 63, 64, 65, 1000, 4096] where start < bytes.count {
            chunked.update(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        chunked.update(bytes[start...])
        #expect(chunked.hexDigest() == whole.hexDigest())
        let file = temporaryDirectory("sha") + "/bytes"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.hasPrefix(whole.hexDigest() + " "))
    }
}
