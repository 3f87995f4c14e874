import Foundation
import Recurrence

/// The due notifications that one move of ``NotificationScheduler``'s
/// clock found, in time order, made into outputs a few thousand at a time
/// (``NotificationScheduler/advance(to:atMost:)``).
///
/// When the clock starts, every overdue task is due at once: 63 000
/// notifications for 100 000 tasks. Made and handed on whole, their
/// outputs (7 MB), their events (8 MB) and their lines (10 MB) were all
/// fresh memory, which the main thread faulted in page by page while the
/// stages' threads waited. A few thousand at a time, the same arrays serve
/// again.
struct HeldDues {
    /// A due notification found on the clock's way: when it fires, the
    /// task's position, and the cycle that is due.
    typealias Due = (time: Date, position: Int, cycle: Cycle)

    /// The dues found, in the order they fire; those before ``next`` were
    /// made into outputs already.
    private var dues: [Due] = []
    private var next = 0
    /// The time of the last due made into an output, and how many fired
    /// at that instant (for the pending limit).
    private var firedAtInstant: (time: Date, count: Int)?

    /// Whether every due was made into an output.
    var isEmpty: Bool { next == dues.count }

    /// Holds `dues` (sorted in the order they fire), none made into an
    /// output yet.
    init(_ dues: [Due] = []) { self.dues = dues }

    /// An empty list to find the next dues in: the last one's storage,
    /// unless the clock's start made it large. Leaves this empty.
    mutating func takeStorage() -> [Due] {
        precondition(isEmpty, "dues still held")
        var storage: [Due] = []
        swap(&storage, &dues)
        next = 0
        storage.removeAll(keepingCapacity: storage.capacity <= 1024)
        return storage
    }

    /// The outputs of the next `limit` dues at most, in order: each a
    /// notification, or a suppression once `pendingLimit` dues have
    /// fired at its instant.
    mutating func outputs(atMost limit: Int, tasks: [RecurringTask], pendingLimit: Int?) -> [SchedulerOutput] {
        let end = next + min(limit, dues.count - next)
        var outputs: [SchedulerOutput] = []
        outputs.reserveCapacity(end - next)
        for due in dues[next..<end] {
            let count = firedAtInstant?.time == due.time ? firedAtInstant!.count : 0
            if let pendingLimit, count >= pendingLimit {
                outputs.append(.suppress(Suppression(time: due.time, taskID: tasks[due.position].id, cause: .pendingLimit)))
                continue
            }
            firedAtInstant = (due.time, count + 1)
            outputs.append(
                .notify(
                    TaskNotification(
                        kind: .due, time: due.time, taskID: tasks[due.position].id, title: tasks[due.position].title,
                        due: due.cycle.due, windowStart: due.cycle.windowStart)))
        }
        next = end
        return outputs
    }
}
