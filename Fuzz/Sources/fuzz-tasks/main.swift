import Foundation
import FuzzSupport
import Recurrence

// libFuzzer target: a tasks file (--tasks, `task import`), read both ways
// (straight from the bytes, and as a tree: they must agree), then what the
// commands ask of each task: its status and the location gate's decision at
// its start, its end, its completions, a few cycles on, and a fixed date.
Fuzzer.run { bytes in
    func read(_ reading: TaskFile.Reading) -> (tasks: [RecurringTask]?, problem: String?) {
        do {
            return (try TaskFile.decode(Data(bytes), reading: reading), nil)
        } catch {
            return (nil, "\(error)")
        }
    }
    let direct = read(.direct), tree = read(.tree)
    guard direct.tasks == tree.tasks, direct.problem == tree.problem else {
        fatalError("the direct and tree readers disagree: \(direct) against \(tree)")
    }
    guard let tasks = direct.tasks else { return }
    let fixedDate = Date(timeIntervalSince1970: 1_748_736_000)  // 2025-06-01T00:00:00Z
    for var task in tasks.prefix(8) {
        var times = [task.start, task.start.addingTimeInterval(-86_400), fixedDate] + task.completions.suffix(4)
        if let end = task.end { times.append(end) }
        var time = task.start
        for _ in 0..<4 {
            guard let cycle = task.cycle(at: time) else { break }
            blackHole(cycle.progress(at: time))
            times += [cycle.windowStart, cycle.due]
            time = cycle.due.addingTimeInterval(1)
        }
        for time in times {
            blackHole(task.status(at: time))
            blackHole(task.locationDecision(at: time, lastLocationNotification: time.addingTimeInterval(-3_600)))
        }
        task.complete(at: fixedDate)
        blackHole(task.status(at: fixedDate.addingTimeInterval(1)))
    }
}
