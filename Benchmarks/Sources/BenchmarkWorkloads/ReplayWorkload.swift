import Foundation
import GeoCore
import Geofencing
import Recurrence

/// The end-to-end replay workload of the pipeline issue, shaped like
/// `Scripts/make-replay-workload.py` over ../shared/bench's files: a 1 Hz
/// random walk in the city box written as NMEA (a GGA and an RMC per fix),
/// 10 000 regions of which every tenth belongs to one of 1 000 tasks with
/// every schedule kind, starting in the weeks before the walk.
public enum ReplayWorkload {
    /// The walk's first fix: 2023-11-14T22:13:20Z, as gen_workload.py.
    public static let start: Int64 = 1_700_000_000

    /// `count` regions in the city box; region `i` with `i % 10 == 0`
    /// belongs to task `task-(i / 10 % tasks)`.
    public static func regions(count: Int, tasks: Int) -> [Region] {
        var workload = GeofenceWorkload(layout: .city, seed: 11)
        return workload.regions(count: count).enumerated().map { index, shape in
            Region(id: "r\(index)", shape: shape, task: index % 10 == 0 ? "task-\(index / 10 % tasks)" : nil)
        }
    }

    /// `count` tasks: flexible, fixed, weekday and short flexible schedules
    /// in turn, started 0–21 days before the walk, with a few completions.
    public static func tasks(count: Int) -> [RecurringTask] {
        var random = GeofenceWorkload(layout: .city, seed: 5)
        let walkStart = Date(timeIntervalSince1970: TimeInterval(start))
        return (0..<count).map { index in
            let started = walkStart.addingTimeInterval(-random.uniform(0, 21 * 86_400))
            let schedule: Schedule
            switch index % 4 {
            case 0: schedule = .afterCompletion(min: .init(2, .days), max: .init(4, .days))
            case 1: schedule = .fixed(every: .init(2, .days))
            case 2: schedule = .weekdays([.monday, .thursday], at: TimeOfDay(hour: 18, minute: 0))
            default: schedule = .afterCompletion(min: .init(12, .hours), max: .init(36, .hours))
            }
            let completions = (0..<Int(random.uniform(0, 4))).map { _ in
                started.addingTimeInterval(random.uniform(6, 336) * 3_600)
            }
            return RecurringTask(
                id: "task-\(index)", title: "Errand \(index)", timeZone: TimeZone(identifier: "Europe/Berlin")!,
                start: started, schedule: schedule, lead: .init(6, .hours), completions: completions.sorted())
        }
    }
}
