import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes bytes to a file or standard output in large writes, counting
/// them and, when asked, hashing them on the way (the manifest's `bytes`
/// and `sha256`).
public final class HashedFileWriter {
    /// Where the bytes go (`-` for standard output).
    public let path: String
    private let descriptor: Int32
    private var hash: SHA256?
    /// Bytes written so far.
    public private(set) var byteCount = 0
    /// Whether the start was written over, so the hash is taken again from the file.
    private var isRewritten = false

    /// Creates (or truncates) the file at `path`; `-` writes to standard
    /// output. `hashing` computes the SHA-256 of what is written.
    /// - Throws: ``RunError/cannotCreate(_:reason:)``.
    public init(path: String, hashing: Bool) throws {
        self.path = path
        hash = hashing ? SHA256() : nil
        if path == "-" {
            descriptor = STDOUT_FILENO
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw RunError.creating(path) }
            descriptor = opened
        }
    }

    /// Writes `buffer` out (callers collect about a megabyte first).
    /// - Throws: ``RunError/writeFailed(_:_:)`` (a full disk, a closed pipe).
    public func write(_ buffer: [UInt8]) throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { bytes in
            hash?.update(bytes)
            if let failure = writeFully(descriptor, bytes) {
                throw RunError.writeFailed(path, String(cString: strerror(failure)))
            }
        }
        byteCount += buffer.count
    }

    /// Writes `bytes` over the start of the file: FIT's header, which holds
    /// the length of the data after it. The SHA-256 is then taken from the
    /// file as it ends, at ``close()``.
    /// - Throws: ``RunError/writeFailed(_:_:)``; standard output is not rewritten.
    public func overwriteStart(_ bytes: [UInt8]) throws {
        guard descriptor != STDOUT_FILENO else { throw RunError.writeFailed(path, "standard output cannot be rewritten") }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw RunError.writeFailed(path, String(cString: strerror(errno))) }
        if hash != nil { isRewritten = true }
    }

    /// Closes the file; returns the SHA-256 of everything written, if hashing.
    public func close() -> String? {
        if descriptor != STDOUT_FILENO { Glibc.close(descriptor) }
        guard isRewritten, let file = FileHandle(forReadingAtPath: path) else { return hash?.hexDigest() }
        defer { try? file.close() }
        // Read back a megabyte at a time, so that memory stays flat here too.
        var rehash = SHA256()
        while let chunk = try? file.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { rehash.update($0) }
        }
        return rehash.hexDigest()
    }
}
