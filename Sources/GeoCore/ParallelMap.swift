import Dispatch
import Synchronization

/// `body(0) … body(count − 1)` on up to `jobs` threads at once, results in
/// index order. Work is handed out one index at a time, so long and short
/// items balance.
public func parallelMap<Result: Sendable>(count: Int, jobs: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    let results = Mutex<[Result?]>(Array(repeating: nil, count: count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            let result = body(index)
            results.withLock { $0[index] = result }
        }
    }
    return results.withLock { $0.map { $0! } }
}
