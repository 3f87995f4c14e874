import Foundation
import Glibc

/// Writes all of `bytes` to a non-blocking descriptor (a socat pty end),
/// sleeping (not blocking a thread) while the other side has not drained it.
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
