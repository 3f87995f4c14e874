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

    /// Closes the file; returns the SHA-256 of everything written, if hashing.
    public func close() -> String? {
        if descriptor != STDOUT_FILENO { Glibc.close(descriptor) }
        return hash?.hexDigest()
    }
}
