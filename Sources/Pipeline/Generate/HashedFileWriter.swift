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
    /// Where the first byte went: 0 in a file this writer created;
    /// standard output's offset when it began, in a file it was sent to.
    private let startOffset: off_t

    /// Creates (or truncates) the file at `path`; `-` writes to standard
    /// output. `hashing` computes the SHA-256 of what is written.
    /// - Throws: ``RunError/cannotCreate(_:reason:)``.
    public init(path: String, hashing: Bool) throws {
        self.path = path
        hash = hashing ? SHA256() : nil
        if path == "-" {
            descriptor = STDOUT_FILENO
            startOffset = max(0, lseek(STDOUT_FILENO, 0, SEEK_CUR))
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw RunError.creating(path) }
            descriptor = opened
            startOffset = 0
        }
    }

    /// Why standard output cannot be written over (``overwriteStart(_:)``),
    /// or `nil` when it can: it is sent to a regular file (`> walk.fit`),
    /// not appended to (`>>`), nor a pipe, a terminal or another device.
    public static func standardOutputRewriteProblem() -> String? {
        var status = stat()
        guard fstat(STDOUT_FILENO, &status) == 0 else { return "standard output is closed" }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            let flags = fcntl(STDOUT_FILENO, F_GETFL)
            return flags >= 0 && flags & O_APPEND == 0
                ? nil : "standard output is appended to (>>), where every write goes to the end"
        case S_IFIFO: return "standard output is a pipe"
        case S_IFSOCK: return "standard output is a socket"
        case S_IFCHR: return isatty(STDOUT_FILENO) == 1 ? "standard output is a terminal" : "standard output is a device"
        default: return "standard output is not a file"
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

    /// Writes `bytes` over the start of what was written: FIT's header,
    /// which holds the length of the data after it. The SHA-256 is then
    /// taken from the file as it ends, at ``close()``.
    /// - Throws: ``RunError/writeFailed(_:_:)``, for standard output when
    ///   ``standardOutputRewriteProblem()`` has one.
    public func overwriteStart(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, startOffset) }
        guard written == bytes.count else { throw RunError.writeFailed(path, String(cString: strerror(errno))) }
        if hash != nil { isRewritten = true }
    }

    /// Closes the file; returns the SHA-256 of everything written, if hashing.
    public func close() -> String? {
        if descriptor != STDOUT_FILENO { Glibc.close(descriptor) }
        guard isRewritten else { return hash?.hexDigest() }
        // Standard output is open for writing only: its file is opened again
        // to be read. A file that cannot be read back has no hash, rather
        // than the hash of the bytes before the start was written over.
        guard let file = FileHandle(forReadingAtPath: path == "-" ? "/proc/self/fd/1" : path) else { return nil }
        defer { try? file.close() }
        guard (try? file.seek(toOffset: UInt64(startOffset))) != nil else { return nil }
        // Read back a megabyte at a time, so that memory stays flat here too.
        var rehash = SHA256()
        while let chunk = try? file.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { rehash.update($0) }
        }
        return rehash.hexDigest()
    }
}
