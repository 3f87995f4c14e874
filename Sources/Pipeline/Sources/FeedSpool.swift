#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy on disk of a feed that comes through a pipe (standard input,
/// `<(zcat feed.csv.gz)`), so that a command can read it twice without
/// keeping it in memory.
///
/// The first read of the feed copies each chunk into the spool as it
/// goes (``FileByteReader``); once a read reached the end of input, later
/// reads take the copy instead of the pipe. The copy is a temporary file
/// in `TMPDIR` (else `/tmp`), unlinked as soon as it is made: it takes
/// no name in the directory and is gone when the spool is, or when the
/// process ends, however it ends.
///
/// One read at a time uses a spool; a read that hands its reader to
/// another thread hands the spool with it.
public final class FeedSpool: @unchecked Sendable {
    /// The feed copied: its path, `-` for standard input.
    public let feed: String
    /// What the copy is read again for, in its errors: "for --report".
    public let purpose: String
    /// The directory the copy was made in.
    public let directory: String
    let descriptor: Int32
    /// Whether a read copied the feed to its end.
    private(set) var isComplete = false

    /// A spool for `feed`, empty; `purpose` says what for in its errors.
    /// - Throws: ``FeedSpoolError`` when no temporary file can be made.
    public init(feed: String, purpose: String) throws {
        self.feed = feed
        self.purpose = purpose
        let environment = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        directory = environment.isEmpty ? "/tmp" : environment
        var template = Array((directory + "/repeat-sim-spool-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { throw FeedSpoolError(feed: feed, directory: directory, purpose: purpose, errno: errno) }
        descriptor = made
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // Not inherited by the processes a command starts.
        _ = fcntl(made, F_SETFD, FD_CLOEXEC)
    }

    deinit { close(descriptor) }

    /// Empties the copy, for a read that copies the feed from its start.
    func restart() throws {
        isComplete = false
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(errno) }
    }

    /// Adds `chunk`, the next bytes of the feed, to the copy.
    func append(_ chunk: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < chunk.count {
            let count = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
            if count > 0 {
                written += count
            } else if count < 0, errno != EINTR {
                throw failure(errno)
            }
        }
    }

    /// The copy's size in bytes once it is whole; `nil` before.
    public var completeSize: Int? {
        var info = stat()
        guard isComplete, fstat(descriptor, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Marks the copy whole: the read that made it reached the end of input.
    func finish() { isComplete = true }

    /// Puts the copy's offset back at its start, for a read of the copy.
    func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(errno) }
    }

    private func failure(_ code: Int32) -> FeedSpoolError {
        FeedSpoolError(feed: feed, directory: directory, purpose: purpose, errno: code)
    }
}

/// Why a pipe's copy (``FeedSpool``) could not be made or written.
public struct FeedSpoolError: Error, CustomStringConvertible {
    /// The feed copied.
    public var feed: String
    /// The directory the copy is made in.
    public var directory: String
    /// What the copy is for.
    public var purpose: String
    /// The system's reason.
    public var reason: String

    init(feed: String, directory: String, purpose: String, errno code: Int32) {
        self.feed = feed
        self.directory = directory
        self.purpose = purpose
        reason = String(cString: strerror(code))
    }

    /// `cannot copy standard input into /tmp (to read it again for
    /// --report): No space left on device; set TMPDIR to copy it elsewhere`.
    public var description: String {
        "cannot copy \(feed == "-" ? "standard input" : feed) into \(directory) (to read it again \(purpose)): "
            + "\(reason); set TMPDIR to copy it elsewhere"
    }
}
