import Benchmark
import Foundation
import Recurrence

/// The recurrence core on its hot paths: the status of a task with a long
/// history (the cycle is recomputed from every completion), and the
/// location gate the pipeline asks on every region entry.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 1_000)

    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let start = Date(timeIntervalSince1970: 1_736_150_400)  // 2025-01-06T08:00:00Z
    let completions = (1...200).map { start.addingTimeInterval(Double($0) * 12 * 7 * 86_400) }
    let now = completions.last!.addingTimeInterval(30 * 86_400)
    let schedules: [(String, Schedule)] = [
        ("afterCompletion 10w-14w", .afterCompletion(min: .init(10, .weeks), max: .init(14, .weeks))),
        ("fixed 1mo", .fixed(every: .init(1, .months))),
        ("weekdays mon,wed,fri 18:00", .weekdays([.monday, .wednesday, .friday], at: TimeOfDay(hour: 18, minute: 0))),
    ]

    for (name, schedule) in schedules {
        let task = RecurringTask(
            id: "t", title: "T", timeZone: berlin, start: start, schedule: schedule, completions: completions)
        Benchmark("status, 200 completions, \(name)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(task.status(at: now))
            }
        }
    }

    let fresh = RecurringTask(
        id: "cat", title: "Cat", timeZone: berlin, start: start,
        schedule: .afterCompletion(min: .init(10, .weeks), max: .init(14, .weeks)))
    Benchmark("location gate, one cycle", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(fresh.locationDecision(at: start.addingTimeInterval(Double(index) * 600), lastLocationNotification: nil))
        }
    }
}
