import Foundation
import GateWorkloads

// gate-count --list: the names of the works, one per line.
// gate-count WORK: readies one GateBenchmarks workload and runs it once
// inside `repeat_measured_region`, so that
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=repeat_measured_region gate-count WORK
// counts the instructions of that work alone. Prints what the run did, for
// Scripts/check-benchmark-gates.py to check that nothing was lost.

let names = GateWork.allCases.map(\.rawValue)
if CommandLine.arguments.dropFirst() == ["--list"] {
    print(names.joined(separator: "\n"))
    exit(0)
}
guard CommandLine.arguments.count == 2, let work = GateWork(rawValue: CommandLine.arguments[1]) else {
    print("usage: gate-count --list | WORK, one of: \(names.joined(separator: ", "))")
    exit(2)
}
do {
    let run = try work.prepare()()
    let outcome = inMeasuredRegion(run)
    print("\(work.rawValue) items=\(work.items) handled=\(outcome.handled) found=\(outcome.found)")
    exit(outcome.handled == work.items ? 0 : 1)
} catch {
    print("gate-count: \(work.rawValue): \(error)")
    exit(1)
}
