import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Pipe {
    /// A pipe whose two descriptors close when any process the test runner
    /// starts executes its program. Foundation's `Pipe` leaves them open,
    /// so a child started meanwhile by another test (socat, gpsd, a
    /// `repeat-sim` run) would hold this pipe's write end, and the process
    /// it belongs to would not be seen to end until that child did. The
    /// process given the pipe still gets its end: `Process` copies it onto
    /// descriptor 0, 1 or 2, and the copy stays open.
    public static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
