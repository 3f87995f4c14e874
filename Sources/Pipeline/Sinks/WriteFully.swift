#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to `descriptor`, retrying after interrupts and
/// short writes; returns `errno` of a write that failed, or `nil`.
func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}
