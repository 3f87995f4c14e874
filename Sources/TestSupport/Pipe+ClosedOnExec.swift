import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Pipe {
    /// A pipe whose two descriptors close when any process the test runner
    /// starts executes its program. Foundation's `Pipe` leaves them open:
    /// a child that another test starts meanwhile without closing what it
    /// inherits (a plain `posix_spawn`) would hold this pipe's write end,
    /// and its reader would see no end of the stream until that child
    /// ended. The process given the pipe still gets its end: `Process`
    /// copies it onto descriptor 0, 1 or 2, and the copy stays open.
    public static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
