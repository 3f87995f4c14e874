#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file or stdin could not be read.
public struct FileReadError: Error, CustomStringConvertible {
    /// The path (or `-` for stdin).
    public var path: String
    /// What failed, with the system's reason.
    public var reason: String

    /// `cannot open x.gpx: No such file or directory`.
    public var description: String { "cannot \(reason) \(path == "-" ? "standard input" : path)" }
}

/// Reads a file or standard input synchronously with read(2) in large
/// chunks and hands each chunk on as soon as it arrives.
///
/// A pipe (`cat /dev/ttyACM0 | repeat-sim decode -`) streams: `read`
/// returns whatever is available, so each chunk reaches the decoder
/// without waiting for the end of input. Memory is one chunk buffer.
/// This is a blocking reader for the command line's own thread; live
/// sources that must not block Swift's cooperative pool use their own
/// threads.
///
/// With a ``FeedSpool``, the first read copies the input into it and
/// later ones read the copy (a pipe read twice).
public final class FileByteReader {
    /// The default chunk size: 1 MiB.
    public static let defaultChunkSize = 1 << 20

    /// The path read, or `-` for stdin.
    public let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    /// The spool the input is copied into as it is read.
    private let copy: FeedSpool?

    /// Opens `path` for reading; `-` means standard input. With `spool`,
    /// reads its copy if a read completed it, else copies the input into
    /// it from the start.
    public init(path: String, chunkSize: Int = FileByteReader.defaultChunkSize, spool: FeedSpool? = nil) throws {
        self.path = path
        if let spool, spool.isComplete {
            try spool.rewind()
            descriptor = spool.descriptor
            ownsDescriptor = false
            copy = nil
        } else if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            copy = spool
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileReadError(path: path, reason: "open (\(Self.lastError()))") }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw FileReadError(path: path, reason: "read a directory:")
            }
            descriptor = fd
            ownsDescriptor = true
            copy = spool
        }
        buffer = .allocate(byteCount: max(1, chunkSize), alignment: 16)
        Self.widenPipe(descriptor, to: chunkSize)
        try copy?.restart()
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// Calls `body` with each chunk until the end of input; the chunk's
    /// memory is only valid during the call.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                try copy?.append(chunk)
                try body(chunk)
            } else if count == 0 {
                copy?.finish()
                return
            } else if errno != EINTR {
                throw FileReadError(path: path, reason: "read (\(Self.lastError()))")
            }
        }
    }

    /// Lets a pipe hold up to `size` bytes (as far as the system allows),
    /// so that a writer running ahead fills whole chunks: a pipe holds
    /// 64 KiB by default, and each read of it costs a decode and a hand-off.
    /// A slow writer's bytes still come as they arrive.
    private static func widenPipe(_ descriptor: Int32, to size: Int) {
        #if os(Linux)
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
            // F_SETPIPE_SZ, which Glibc's headers give only to GNU code.
            _ = fcntl(descriptor, 1031, Int32(clamping: size))
        #endif
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
