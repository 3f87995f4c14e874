import Foundation

/// One run of an `--exec` command: `/bin/sh -c COMMAND` in a process group
/// of its own, standard input `/dev/null`, standard output on stderr.
///
/// posix_spawn rather than Foundation's `Process`, which cannot start a
/// process group: a hook that times out is stopped with every process it
/// started (`sh -c 'sleep 60 | cat'` leaves no orphan holding stderr open).
enum HookProcess {
    /// How a run ended.
    enum Outcome: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(Int32)
        /// It ran past the timeout and was stopped.
        case timedOut
        /// It could not be started (`errno`).
        case notStarted(Int32)
    }

    /// Runs `command` with `environment` and waits for it, at most
    /// `timeout` seconds (then SIGTERM to its group, SIGKILL two seconds later).
    static func run(_ command: String, environment: [String: String], timeout: Double) -> Outcome {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, variables)
        guard started == 0 else { return .notStarted(started) }
        return wait(for: pid, timeout: timeout)
    }

    /// Polls `pid` every 2 ms until it ends or the timeout passes.
    private static func wait(for pid: pid_t, timeout: Double) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var stopping: Date?
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { return .exited(-1) }
            let now = Date()
            if stopping == nil, now >= deadline {
                kill(-pid, SIGTERM)
                stopping = now
            } else if let stopping, now.timeIntervalSince(stopping) >= 2 {
                kill(-pid, SIGKILL)
            }
            usleep(2_000)
        }
        // Whatever the shell left running in its group goes with it.
        if stopping != nil {
            kill(-pid, SIGKILL)
            return .timedOut
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal)
    }
}
