import Foundation
import GeoCore

/// The scheduler's agenda: each task's position by the time of its next
/// event, taken in time order as the feed's clock passes them.
///
/// One heap of every task made each take walk down a megabyte and a half
/// of it with 100 000 tasks, a cache miss at nearly every level. Here the
/// appointments are kept in buckets of an hour: only the buckets the clock
/// has reached make a heap, a few hundred appointments that stay in cache,
/// and a later bucket joins the heap when the clock reaches its hour. What
/// comes out is what one heap gives: every appointment by a time, in order
/// of time, then of position.
struct Agenda {
    /// A task's next event: when, and the task's position.
    struct Appointment: Comparable, Sendable {
        var time: Date
        var position: Int

        static func < (a: Appointment, b: Appointment) -> Bool { (a.time, a.position) < (b.time, b.position) }
    }

    /// Every appointment of the buckets up to ``current``: all of them
    /// come before any in ``later``.
    private var reached = MinHeap<Appointment>()
    /// The last bucket whose appointments go to ``reached``.
    private var current = Int.min
    /// The appointments of the buckets after ``current``, by bucket.
    private var later: [Int: [Appointment]] = [:]
    /// The buckets of ``later``.
    private var laterBuckets = MinHeap<Int>()

    private static let bucketSeconds = 3600.0

    /// The hour of `time`, counted from 1970 (clamped far out of any feed's range).
    private static func bucket(of time: Date) -> Int {
        let hours = (time.timeIntervalSince1970 / bucketSeconds).rounded(.down)
        guard hours > -1e15 else { return -1_000_000_000_000_000 }
        guard hours < 1e15 else { return 1_000_000_000_000_000 }
        return Int(hours)
    }

    /// When `bucket` starts.
    private static func start(of bucket: Int) -> Date { Date(timeIntervalSince1970: Double(bucket) * bucketSeconds) }

    /// Adds an appointment.
    mutating func insert(_ appointment: Appointment) {
        let bucket = Self.bucket(of: appointment.time)
        if bucket <= current { return reached.insert(appointment) }
        if let index = later.index(forKey: bucket) {
            later.values[index].append(appointment)
        } else {
            later[bucket] = [appointment]
            laterBuckets.insert(bucket)
        }
    }

    /// Appointments gathered by hour apart from an agenda, to join it all
    /// at once: a thread of the clock's start fills one for its tasks, so
    /// that the thread every other waits for then adds a list per hour,
    /// not each appointment.
    struct Batch: Sendable {
        fileprivate var byBucket: [Int: [Appointment]] = [:]

        /// Adds an appointment.
        mutating func insert(_ appointment: Appointment) {
            byBucket[Agenda.bucket(of: appointment.time), default: []].append(appointment)
        }
    }

    /// Adds every appointment of `batch`.
    mutating func insert(_ batch: Batch) {
        for (bucket, appointments) in batch.byBucket {
            if bucket <= current {
                for appointment in appointments { reached.insert(appointment) }
            } else if let index = later.index(forKey: bucket) {
                later.values[index].append(contentsOf: appointments)
            } else {
                later[bucket] = appointments
                laterBuckets.insert(bucket)
            }
        }
    }

    /// Whether an appointment may come by `time`: never `false` when one
    /// does, so that a clock that moves to `time` may skip ``takeAll(through:into:)``
    /// when it is.
    func mayHaveAppointment(by time: Date) -> Bool {
        if let first = reached.min { return first.time <= time }
        return laterBuckets.min.map { Self.start(of: $0) <= time } ?? false
    }

    /// The first appointment among the buckets reached, if any.
    var firstReached: Appointment? { reached.min }

    /// Removes every appointment by `time` and appends its position to
    /// `positions`, in order of time, then of position.
    mutating func takeAll(through time: Date, into positions: inout [Int]) {
        while true {
            while let first = reached.min, first.time <= time {
                positions.append(first.position)
                _ = reached.popMin()
            }
            // What is left of the reached buckets comes after `time`, and so
            // does every later bucket; with none left, the next one may not.
            guard reached.isEmpty, let next = laterBuckets.min, Self.start(of: next) <= time else { return }
            _ = laterBuckets.popMin()
            current = next
            for appointment in later.removeValue(forKey: next) ?? [] { reached.insert(appointment) }
        }
    }

    /// Removes every appointment.
    mutating func removeAll() { self = Agenda() }
}
