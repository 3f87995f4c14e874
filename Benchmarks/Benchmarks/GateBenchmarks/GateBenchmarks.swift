import Benchmark
import GateWorkloads
import Pipeline

/// The project's own CI gate: the hot paths measured only on figures that do
/// not depend on the machine's load — heap allocations (CProcessCounters'
/// interposer, through Pipeline's ``AllocationCounter``) and retired
/// instructions where `perf_event_open` is allowed. Their committed p90
/// values live in `Thresholds/`; `Scripts/check-benchmark-gates.py`, which
/// `.ci/run` calls, fails when one grows by more than its tolerance, so a
/// change that allocates twice per fix fails CI while a busy runner does not.
/// Where the kernel gives no instruction counter (as on this project's CI
/// machines) the same script counts the same ``GateWork``'s instructions
/// with callgrind through `gate-count`. Wall-clock speed is tracked by the
/// other suites, never gated.
///
/// Names have no spaces: package-benchmark 1.38 writes a threshold file
/// under a name with `_` for spaces but looks it up under the name itself.
///
/// After an intended change in allocations, rewrite the thresholds with
/// `Scripts/check-benchmark-gates.py --update`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [GateMetric.allocations, GateMetric.instructions],
        warmupIterations: 1, maxDuration: .seconds(600), maxIterations: 3,
        thresholds: [
            GateMetric.allocations: .init(relative: [.p90: 25]),
            GateMetric.instructions: .init(relative: [.p90: 10]),
        ])

    // A query allocates nothing today: any allocation at all fails.
    var noAllocations = Benchmark.defaultConfiguration
    noAllocations.thresholds = [
        GateMetric.allocations: .init(absolute: [.p90: 0]), GateMetric.instructions: .init(relative: [.p90: 10]),
    ]
    for work in GateWork.allCases {
        let configuration = work == .gridQuery ? noAllocations : Benchmark.defaultConfiguration
        Benchmark(work.rawValue, configuration: configuration) { benchmark in
            let run = try work.prepare()()
            let outcome = GateMetric.measure(benchmark, run)
            precondition(outcome.handled == work.items, "\(work.rawValue): every item handled")
        }
    }
}

/// The gate's figures, as package-benchmark custom metrics.
enum GateMetric {
    /// Heap allocations made while the benchmark measured.
    static let allocations = BenchmarkMetric.custom("allocations")
    /// User-space instructions retired by the measuring thread.
    static let instructions = BenchmarkMetric.custom("instructions")

    /// Runs `body` between the benchmark's start and stop, recording its
    /// allocations and, where the kernel allows, its instructions.
    @discardableResult
    static func measure<T>(_ benchmark: Benchmark, _ body: () -> T) -> T {
        let counter = try? InstructionCounter()
        let before = AllocationCounter.count
        benchmark.startMeasurement()
        let (result, instructions) = counter.map { $0.measure(body) } ?? (body(), nil)
        benchmark.stopMeasurement()
        benchmark.measurement(allocations, Int(AllocationCounter.count - before))
        if let instructions { benchmark.measurement(self.instructions, Int(instructions)) }
        blackHole(result)
        return result
    }
}
