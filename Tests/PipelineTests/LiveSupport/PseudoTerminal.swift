import Foundation
import Glibc

/// An in-process pseudo-terminal pair from `openpty`, with a symbolic link
/// to its device in a temporary folder: the serial source opens the link,
/// the test writes into the master side.
///
/// The link is removed when the master closes, so that the source's reopen
/// attempts fail (ENOENT) even if the kernel hands the pty number to another
/// test meanwhile.
final class PseudoTerminal {
    /// The master side's descriptor (non-blocking), or -1 once closed.
    private(set) var master: Int32
    /// The symbolic link to the slave device.
    let linkPath: String

    /// Opens a pair and links its slave device at `linkPath`.
    init(linkPath: String) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(errno, "openpty") }
        // Not inherited by processes other tests start meanwhile: a child holding the
        // master would keep the terminal open after the test closes it.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        defer { close(slave) }
        guard let name = ttyname(slave) else { throw POSIXError(errno, "ttyname") }
        let devicePath = String(cString: name)
        guard symlink(devicePath, linkPath) == 0 else { throw POSIXError(errno, "symlink \(linkPath)") }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.linkPath = linkPath
    }

    /// Writes all of `bytes` into the master side.
    func write(_ bytes: [UInt8]) async throws {
        try await writeAll(bytes, to: master)
    }

    /// Closes the master side: the slave hangs up and its device goes away.
    func closeMaster() {
        guard master >= 0 else { return }
        unlink(linkPath)
        close(master)
        master = -1
    }

    deinit { closeMaster() }
}

/// Writes all of `bytes` to a non-blocking descriptor, sleeping (not
/// blocking a thread) while the other side has not drained it.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) async throws {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 {
            offset += written
        } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
            try await Task.sleep(for: .milliseconds(5))
        } else {
            throw POSIXError(errno, "write")
        }
    }
}

/// An errno with what was being done, for test failures.
struct POSIXError: Error, CustomStringConvertible {
    let code: Int32
    let operation: String
    init(_ code: Int32, _ operation: String) {
        self.code = code
        self.operation = operation
    }
    var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// A fresh folder under the system's temporary directory, removed by ``remove()``.
struct TemporaryFolder {
    /// The folder's path.
    let path: String

    /// Creates the folder.
    init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(errno, "mkdtemp")
        }
        path = String(cString: created)
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
