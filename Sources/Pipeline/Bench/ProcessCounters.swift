import CProcessCounters
import Foundation

/// The heap allocations of the whole process, counted by CProcessCounters'
/// malloc interposer (glibc only): the load-independent figure behind
/// `bench`'s allocations per 1 000 fixes.
public enum AllocationCounter {
    /// Whether this build counts allocations (`false` off glibc).
    public static var isAvailable: Bool { repeat_allocations_counted() != 0 }

    /// Allocations (malloc, calloc, realloc and the aligned kinds) made by
    /// every thread since the process started.
    public static var count: UInt64 { repeat_allocation_count() }
}

/// The CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): what the
/// ratios of `bench` divide, because time spent descheduled on a busy
/// machine is not in it.
public enum ThreadCPUClock {
    /// Seconds of CPU the calling thread has used.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A counter of the instructions the calling thread retires in user space,
/// through `perf_event_open(2)`; where the kernel offers none, opening it
/// says why.
public final class InstructionCounter {
    private let descriptor: Int32

    /// Opens the counter.
    /// - Throws: ``InstructionCounterUnavailable`` with the reason.
    public init() throws(InstructionCounterUnavailable) {
        let result = repeat_instructions_open()
        guard result >= 0 else { throw InstructionCounterUnavailable(errorNumber: -result) }
        descriptor = result
    }

    deinit { repeat_instructions_close(descriptor) }

    /// Runs `body` and returns its result with the instructions it took
    /// (`nil` when the counter could not be read).
    public func measure<T>(_ body: () throws -> T) rethrows -> (result: T, instructions: Int64?) {
        repeat_instructions_start(descriptor)
        let result = try body()
        let count = repeat_instructions_stop(descriptor)
        return (result, count >= 0 ? count : nil)
    }
}

/// Why the kernel gives no instruction counter.
public struct InstructionCounterUnavailable: Error, CustomStringConvertible {
    /// The `errno` of `perf_event_open`.
    public let errorNumber: Int32

    public var description: String {
        let reason: String
        switch errorNumber {
        case ENOENT, EOPNOTSUPP:
            reason = "this kernel or virtual machine exposes no hardware instruction counter"
        case EACCES, EPERM:
            let paranoid =
                (try? String(contentsOfFile: "/proc/sys/kernel/perf_event_paranoid", encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown"
            reason =
                "not permitted (kernel.perf_event_paranoid is \(paranoid); 2 or less allows one's own threads, "
                + "unless a container's seccomp profile forbids the call)"
        case ENOSYS:
            reason = "this system has no perf_event_open"
        default:
            reason = String(cString: strerror(errorNumber))
        }
        return "perf_event_open failed: \(reason) (errno \(errorNumber))"
    }
}
