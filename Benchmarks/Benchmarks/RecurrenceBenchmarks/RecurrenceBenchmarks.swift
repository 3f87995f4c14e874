import Benchmark
import Foundation
import Recurrence

/// The recurrence core on its hot paths: the status of a task with a long
/// history (the cycle is recomputed from every completion), the location
/// gate the pipeline asks on every region entry, and a tasks file of
/// 10 000 tasks read straight from its bytes and, for comparison, as a tree.
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

    let file = tasksFile(count: 10_000)
    for reading in [TaskFile.Reading.direct, .tree] {
        Benchmark("tasks file, 10k tasks, read \(reading)", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try TaskFile.decode(file, reading: reading))
            }
        }
    }
}

/// A tasks file of `count` tasks of every schedule, some with completions
/// and a place, written as people write them (one member to a line).
func tasksFile(count: Int) -> Data {
    let schedules = [
        #"{"afterCompletion": {"min": "10w", "max": "14w"}}"#, #"{"fixed": {"every": "1w"}}"#,
        #"{"weekdays": {"days": ["mon", "wed", "fri"], "at": "18:00"}}"#, #"{"once": {"due": "2025-03-01T09:00:00Z"}}"#,
    ]
    let tasks = (0..<count).map { index in
        var members = [
            #""id": "task-\#(index)""#, #""title": "Errand \#(index)""#, #""timeZone": "Europe/Berlin""#,
            #""start": "2025-01-06T09:00:00+01:00""#, #""schedule": \#(schedules[index % schedules.count])"#,
            #""lead": "24h""#,
        ]
        if index % 2 == 0 { members.append(#""completions": ["2025-01-20T17:45:00+01:00", "2025-02-03T08:10:00Z"]"#) }
        if index % 5 == 0 {
            members.append(#""locations": [{"name": "Pharmacy", "lat": 52.5163, "lon": 13.3777, "radius": 150}]"#)
        }
        return "  {\n    " + members.joined(separator: ",\n    ") + "\n  }"
    }
    return Data(("{\"tasks\": [\n" + tasks.joined(separator: ",\n") + "\n]}\n").utf8)
}
