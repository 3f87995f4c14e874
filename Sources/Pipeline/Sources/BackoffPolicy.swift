/// How long a live source waits before its next reconnection attempt.
///
/// The delay after the n-th consecutive failure is
/// `initialDelay × factor^(n−1)`, never more than `maximumDelay`. With the
/// defaults (0.5 s, × 2, at most 30 s) the waits are 0.5, 1, 2, 4, 8, 16, 30,
/// 30, … seconds. No jitter is added: one process reconnects to one device,
/// so there is no herd to spread out, and the printed delays stay predictable.
///
/// The policy is a plain value; ``Backoff`` applies it to a run of failures.
public struct BackoffPolicy: Sendable, Equatable {
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// The multiplier from one wait to the next (at least 1).
    public var factor: Double
    /// The longest wait, however many failures came before.
    public var maximumDelay: Duration

    /// A policy; `initialDelay` must be positive, `factor` at least 1 and
    /// `maximumDelay` at least `initialDelay`.
    public init(
        initialDelay: Duration = .milliseconds(500),
        factor: Double = 2,
        maximumDelay: Duration = .seconds(30)
    ) {
        precondition(initialDelay > .zero, "the initial backoff delay must be positive")
        precondition(factor >= 1, "the backoff factor must be at least 1")
        precondition(maximumDelay >= initialDelay, "the backoff cap must not be below the initial delay")
        self.initialDelay = initialDelay
        self.factor = factor
        self.maximumDelay = maximumDelay
    }

    /// The wait after `failures` consecutive failures (`failures` ≥ 1).
    ///
    /// Complexity: O(min(failures, steps to reach the cap)).
    public func delay(afterFailures failures: Int) -> Duration {
        precondition(failures >= 1, "a delay is only defined after at least one failure")
        var delay = initialDelay
        var step = 1
        while step < failures && delay < maximumDelay {
            delay = delay * factor
            step += 1
        }
        return min(delay, maximumDelay)
    }
}

/// A run of consecutive failures under a ``BackoffPolicy``.
///
/// Call ``recordFailure()`` when an attempt fails (it returns how long to
/// wait) and ``recordSuccess()`` when a connection has proved itself (the
/// live sources do so when it delivers its first bytes); the next failure
/// then waits `initialDelay` again.
public struct Backoff: Sendable, Equatable {
    /// The policy that turns failure counts into delays.
    public let policy: BackoffPolicy
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0

    /// A run with no failures yet.
    public init(policy: BackoffPolicy) {
        self.policy = policy
    }

    /// Counts a failure and returns the wait before the next attempt.
    public mutating func recordFailure() -> Duration {
        consecutiveFailures += 1
        return policy.delay(afterFailures: consecutiveFailures)
    }

    /// Ends the run of failures.
    public mutating func recordSuccess() {
        consecutiveFailures = 0
    }
}
