import Glibc

/// A pseudo-terminal pair from `openpty` whose slave device is linked at a
/// chosen path: a stand-in serial receiver. What is written here comes out
/// of the device for whoever opens the link (`repeat-sim live --device
/// PATH`, gpsd, any app).
///
/// The link is removed when the terminal closes (``close()``, or when the
/// object goes away), so a reader's reopen attempts fail with ENOENT even
/// if the kernel hands the pty number to someone else meanwhile. A pty
/// ignores the baud rate: data arrives as fast as it is written, so pacing
/// is the writer's job (``PacedWriter``).
///
/// ```swift
/// let terminal = try PseudoTerminal(linkPath: "/tmp/gps0")
/// try await terminal.waitForReader()
/// try await terminal.write(bytes)
/// await terminal.drain()
/// terminal.close()
/// ```
public final class PseudoTerminal {
    /// The master side's descriptor (non-blocking), or -1 once closed.
    private var master: Int32
    /// The symbolic link to the slave device.
    public let linkPath: String
    /// The slave device the link points to (`/dev/pts/N`).
    public let devicePath: String

    /// Opens a pair and links its slave device at `linkPath`, which must not exist.
    ///
    /// Neither descriptor is inherited by child processes: a child holding
    /// the master would keep the terminal open after it is closed here.
    public init(linkPath: String) throws(LiveSourceError) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw .system(endpoint: linkPath, operation: "openpty", errno: errno)
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        // The slave is closed at once: a reader opens it through the link.
        defer { Glibc.close(slave) }
        guard let name = ttyname(slave) else {
            let code = errno
            Glibc.close(master)
            throw .system(endpoint: linkPath, operation: "ttyname", errno: code)
        }
        let devicePath = String(cString: name)
        guard symlink(devicePath, linkPath) == 0 else {
            let code = errno
            Glibc.close(master)
            throw .system(endpoint: linkPath, operation: "symlink to \(devicePath)", errno: code)
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.linkPath = linkPath
        self.devicePath = devicePath
    }

    /// Whether some process has the slave device open: the master reports
    /// a hang-up (`POLLHUP`) while nobody does.
    public var hasReader: Bool {
        guard master >= 0 else { return false }
        var descriptor = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & Int16(POLLHUP) == 0
    }

    /// Returns once a reader has the slave device open, checking every
    /// `interval` (bytes written before that would be flushed by the
    /// reader's `tcflush`). Throws `CancellationError` when cancelled.
    public func waitForReader(checkingEvery interval: Duration = .milliseconds(20)) async throws {
        while !hasReader {
            try await Task.sleep(for: interval)
        }
    }

    /// Writes all of `bytes` into the master side, sleeping (not blocking a
    /// thread) while the reader has not drained what is queued.
    public func write(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                try await Task.sleep(for: .milliseconds(5))
            } else {
                throw LiveSourceError.system(endpoint: linkPath, operation: "write", errno: errno)
            }
        }
    }

    /// Returns once the reader has read what was written, so that closing
    /// takes none of it away: a hang-up drops what the device still holds
    /// for its reader (the last epoch of a feed, now and then). That is
    /// when the device's input queue has stayed empty for `settle`, at most
    /// `limit` (a reader that stopped reading), at once without a reader.
    ///
    /// The queue is seen through a descriptor of the device opened here;
    /// where the open is refused (a reader that holds the device
    /// exclusively, for a user without CAP_SYS_ADMIN) it waits `settle`
    /// five times over instead.
    public func drain(settle: Duration = .milliseconds(50), limit: Duration = .seconds(2)) async {
        guard hasReader else { return }
        let device = open(devicePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard device >= 0 else {
            try? await Task.sleep(for: settle * 5)
            return
        }
        defer { Glibc.close(device) }
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        // Bytes just written may not have reached the queue yet: it must stay empty a while.
        var emptySince: ContinuousClock.Instant?
        while clock.now < deadline {
            var queued: Int32 = 0
            if ioctl(device, UInt(FIONREAD), &queued) != 0 || queued > 0 {
                emptySince = nil
            } else if let since = emptySince {
                if clock.now - since >= settle { return }
            } else {
                emptySince = clock.now
            }
            // After a Ctrl-C a task's sleep returns at once: the thread sleeps instead.
            do { try await Task.sleep(for: .milliseconds(5)) } catch { usleep(5_000) }
        }
    }

    /// Removes the link and closes the master side: the reader sees a
    /// hang-up. Closing twice does nothing.
    public func close() {
        guard master >= 0 else { return }
        unlink(linkPath)
        Glibc.close(master)
        master = -1
    }

    deinit { close() }
}
