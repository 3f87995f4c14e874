import Foundation
import Glibc

/// A helper program (socat, gpsfake) started in its own process group, so
/// that stopping it also stops what it started (gpsfake's gpsd), with its
/// output captured in a log file for failure messages.
final class ChildProcess: @unchecked Sendable {
    /// The child's process id, which is also its process group id.
    let pid: pid_t
    /// Where its stdout and stderr go.
    let logPath: String
    private var reaped = false

    /// Starts `arguments[0]` (looked up in PATH) with the given arguments.
    /// Fails, naming the apt package, when the program is not installed.
    init(_ arguments: [String], aptPackage: String, logPath: String) throws {
        guard Self.isInstalled(arguments[0]) else {
            throw MissingTool(program: arguments[0], aptPackage: aptPackage)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test runner's: a pipe or a socket that another
        // test's process is watched through would otherwise stay open in
        // this long-lived child, and that process would never be seen to end.
        Self.closeFrom(3, in: &actions)
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environment)
        guard status == 0 else { throw POSIXError(status, "posix_spawnp \(arguments[0])") }
        self.pid = pid
        self.logPath = logPath
    }

    /// Adds glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and
    /// later; Swift's Glibc module does not declare it) to `actions`:
    /// every descriptor from `lowest` up is closed in the child.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            preconditionFailure("glibc 2.34 or later is needed: posix_spawn_file_actions_addclosefrom_np is missing")
        }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        precondition(closeFrom(&actions, lowest) == 0, "posix_spawn_file_actions_addclosefrom_np failed")
    }

    /// Whether the child has exited (reaping it if so).
    var hasExited: Bool {
        if reaped { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return reaped
    }

    /// The captured output so far.
    var output: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no output)"
    }

    /// Sends `signal` to the whole process group, then SIGKILL after `grace`,
    /// and waits (without blocking a thread) until the child is reaped.
    func stop(signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) async {
        guard !hasExited else { return }
        kill(-pid, signal)
        let deadline = ContinuousClock.now + grace
        while !hasExited {
            if ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        // gpsfake's children may outlive it for a moment; make sure they go too.
        kill(-pid, SIGKILL)
    }

    private static func isInstalled(_ program: String) -> Bool {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    /// A required program is missing.
    struct MissingTool: Error, CustomStringConvertible {
        let program: String
        let aptPackage: String
        var description: String {
            "'\(program)' is not installed; install it with: apt-get install -y --no-install-recommends \(aptPackage) (.ci/run does)"
        }
    }
}

/// Runs `body` with a started child and stops the child however `body` ends.
func withChildProcess<Result>(
    _ arguments: [String], aptPackage: String, logPath: String,
    _ body: (ChildProcess) async throws -> Result
) async throws -> Result {
    let child = try ChildProcess(arguments, aptPackage: aptPackage, logPath: logPath)
    do {
        let result = try await body(child)
        await child.stop()
        return result
    } catch {
        await child.stop()
        throw error
    }
}

/// Waits until `condition` holds, failing with `what` after `timeout`.
func waitFor(_ what: String, timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOutWaiting(what: what, timeout: timeout) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A bounded wait that ran out.
struct TimedOutWaiting: Error, CustomStringConvertible {
    let what: String
    let timeout: Duration
    var description: String { "timed out after \(timeout) waiting for \(what)" }
}
