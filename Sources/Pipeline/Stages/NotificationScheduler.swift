import CMemoryHints
import Foundation
import GeoCore
import Recurrence

/// The recurrence gate and the notification scheduler, as one state machine
/// on the feed's clock.
///
/// The driver calls ``advance(to:)`` before each fix (and once at the end)
/// so that due notifications fire at their own time, between fixes if need
/// be, then ``arrival(taskID:at:region:device:distance:)`` for every region
/// entry of a task. Completions written in the tasks come into force as the
/// clock passes them, because every decision asks the task for its cycle at
/// that moment.
///
/// - A task already overdue when the clock starts gets its due notification
///   at the clock's first time.
/// - Each cycle gets at most one due notification.
/// - With a pending limit N, at most N due notifications can fire at one
///   instant (an app re-arms the N soonest at every wake-up, so only dues
///   that pile up at the same moment — typically the overdue burst at the
///   start, or many tasks due at the same minute — are missed); the rest are
///   suppressed with `pending-limit`.
public struct NotificationScheduler: Sendable {
    /// Settings that override the tasks' own.
    public struct Settings: Hashable, Sendable {
        /// How long after a location reminder the same cycle stays quiet.
        public var cooldown: CalendarDuration
        /// Overrides every task's lead time.
        public var lead: CalendarDuration?
        /// At most this many time-based notifications armed at once.
        public var pendingLimit: Int?

        /// Creates settings; defaults are DESIGN.md's (12 h cooldown, the
        /// tasks' leads, no pending limit).
        public init(cooldown: CalendarDuration = .twelveHours, lead: CalendarDuration? = nil, pendingLimit: Int? = nil) {
            self.cooldown = cooldown
            self.lead = lead
            self.pendingLimit = pendingLimit
        }
    }

    /// What was notified of one task, and its cycle when the clock last
    /// passed one of its events. Its times are ``MaybeTime``s: as `Date?`s
    /// they took 104 bytes a task, not 80, in every setting of a sweep.
    private struct TaskState: Sendable {
        private var lastLocation = MaybeTime()
        private var lastDue = MaybeTime()
        /// The first of the task's completions after a time, as last looked
        /// up (the time `nil` when none was). With 100 000 tasks, reading a
        /// task's completions was a cache miss at nearly every event; the
        /// clock only moves on, so the answer mostly holds.
        private var completionLookedUp = MaybeTime()
        private var completionFound = MaybeTime()
        /// The cycle holds until the task's next event: a completion is an
        /// event, so none comes in between, and only the task's end can
        /// finish it. Kept, it saves working the cycle out again at each
        /// event: 130 000 of 296 000 cycles in a replay of 100 000 tasks.
        var cycleAtLastEvent = KnownCycle.unknown

        var lastLocationNotification: Date? {
            get { lastLocation.date }
            set { lastLocation = MaybeTime(newValue) }
        }

        var lastDueNotified: Date? {
            get { lastDue.date }
            set { lastDue = MaybeTime(newValue) }
        }

        /// The first of `task`'s completions after `time`.
        mutating func firstCompletion(of task: TaskInPlace, after time: Date) -> Date? {
            // None between the time looked up and the answer: the answer
            // holds for any later time before it.
            if let lookedUp = completionLookedUp.date, time >= lookedUp,
                completionFound.date.map({ $0 > time }) ?? true
            {
                return completionFound.date
            }
            let next = task.completions.first { $0 > time }
            completionLookedUp = MaybeTime(time)
            completionFound = MaybeTime(next)
            return next
        }

        /// Forgets what was worked out from the task, keeping what was
        /// notified: for a task that may have changed.
        mutating func forgetTask() {
            cycleAtLastEvent = .unknown
            completionLookedUp = MaybeTime()
        }
    }

    /// A time or none in the 8 bytes of a `Date`, none as NaN (which no
    /// time of a task is), where a `Date?` takes 16 in an array.
    private struct MaybeTime: Sendable {
        private var seconds = Double.nan

        /// None.
        init() {}

        init(_ date: Date?) { seconds = date?.timeIntervalSinceReferenceDate ?? .nan }

        var date: Date? { seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds) }
    }

    /// A cycle worked out before, or not.
    private enum KnownCycle: Sendable {
        case unknown
        /// The cycle, `nil` when the task was finished.
        case known(Cycle?)
    }

    /// A task of ``tasks``, read a field at a time where it is, while the
    /// array is held. Bound as a value, a task was copied whole at each
    /// advance (184 bytes, and a retain and a release of every field):
    /// 97M of the 10.2G instructions of a replay with 100 000 tasks.
    private struct TaskInPlace {
        private let task: UnsafePointer<RecurringTask>
        /// The calendar of the task's zone to work in, when not the one the
        /// zone's tasks share.
        private let calendar: ZonedCalendar?

        init(_ task: UnsafePointer<RecurringTask>, calendar: ZonedCalendar? = nil) {
            self.task = task
            self.calendar = calendar
        }

        var end: Date? { task.pointee.end }
        var completions: [Date] { task.pointee.completions }
        func cycle(at time: Date) -> Cycle? {
            guard let calendar else { return task.cycle(at: time) }
            return task.cycle(at: time, calendar: calendar)
        }
    }

    /// The tasks as given; a task whose id came earlier in the list is
    /// ignored. Kept as the caller's array (no copy).
    private var tasks: [RecurringTask]
    /// The position of each id's task.
    private var positions: NamePositions
    /// What was notified, by position; empty until first needed, so that
    /// a copy of the scheduler made before it runs (the one a caller set
    /// up and still holds) shares no per-task array that the first change
    /// would copy: 8 MB for 100 000 tasks.
    private var states: [TaskState] = []
    private let settings: Settings
    /// Threads that may work out the tasks' cycles when the clock starts
    /// (`--jobs`); what the scheduler says is the same for any number.
    public var threads = 1
    private var clock: Date?
    /// Tasks by the time of their next due or completion, so that a fix
    /// costs nothing for tasks with nothing happening.
    private var agenda = Agenda()
    /// The calendar of the zone of the last task woken up one by one.
    private var lastCalendar: (zone: ZoneBits, calendar: ZonedCalendar)?
    /// ``advance(to:)``'s list of ready tasks, kept empty between calls.
    private var readyBuffer: [Int] = []
    /// The dues of the clock's last move not handed on yet (see
    /// ``advance(to:atMost:)``).
    private var held = HeldDues()

    /// A scheduler for `tasks`. `positions`, when given, must be the
    /// position of each id among `tasks`, as ``NamePositions`` records
    /// them in order (what ``TaskFile/decodeIndexed(_:jobs:)`` returns), so
    /// that 100 000 ids are not hashed a second time.
    public init(tasks: [RecurringTask], positions: NamePositions? = nil, settings: Settings = Settings()) {
        self.settings = settings
        self.tasks = tasks
        self.positions = positions ?? Self.positions(of: tasks)
        precondition(self.positions.count <= tasks.count, "positions of other tasks")
        assert(positions.map { $0.entries.elementsEqual(Self.positions(of: tasks).entries, by: ==) } ?? true)
    }

    /// Makes ``states`` when it is still empty.
    private mutating func makeStates() {
        if states.count != tasks.count { states = Array(repeating: TaskState(), count: tasks.count) }
    }

    /// The position of each id's first task.
    private static func positions(of tasks: [RecurringTask]) -> NamePositions {
        var positions = NamePositions(capacity: tasks.count)
        for position in tasks.indices { positions.recordFirst(tasks[position].id, at: position) }
        return positions
    }

    /// Whether the task at `position` is the one its id stands for.
    private func isScheduled(_ position: Int) -> Bool { positions[tasks[position].id] == position }

    /// Whether `taskID` is one of the tasks.
    public func knows(taskID: String) -> Bool { positions[taskID] != nil }

    /// The feed time reached so far.
    public var now: Date? { clock }

    /// Moves the clock to `time` and returns the due notifications that
    /// fall in between, in time order. A time before the clock is ignored.
    public mutating func advance(to time: Date) -> [SchedulerOutput] { advance(to: time, atMost: .max) }

    /// ``advance(to:)``, returning the first `limit` of its outputs at
    /// most; the rest are held back, in order, for
    /// ``takeHeld(atMost:)``. Nothing else may be asked of the scheduler
    /// while it ``holdsOutputs``. For a driver that hands a burst on in
    /// parts (the clock's start, with every overdue task due at once).
    public mutating func advance(to time: Date, atMost limit: Int) -> [SchedulerOutput] {
        assert(!holdsOutputs, "the outputs held back are taken first")
        guard clock.map({ time > $0 }) ?? true else { return [] }
        // The common case, once per fix: nothing on the agenda by `time`.
        if clock != nil, !agenda.mayHaveAppointment(by: time) {
            clock = time
            return []
        }
        return advanceThroughAgenda(to: time, atMost: limit)
    }

    /// Whether outputs of the clock's last move are held back (see
    /// ``advance(to:atMost:)``).
    public var holdsOutputs: Bool { !held.isEmpty }

    /// The next `limit` outputs held back at most, in order.
    public mutating func takeHeld(atMost limit: Int) -> [SchedulerOutput] {
        held.outputs(atMost: limit, tasks: tasks, pendingLimit: settings.pendingLimit)
    }

    /// ``advance(to:atMost:)`` when tasks are ready by `time`. Apart, so
    /// that the call made for every fix sets up no frame for this part.
    @inline(never)
    private mutating func advanceThroughAgenda(to time: Date, atMost limit: Int) -> [SchedulerOutput] {
        let start = clock ?? time
        // Kept between calls, as most calls find a task or two ready; not
        // when the start's burst (every task) made them large.
        var ready = readyBuffer
        var dues = held.takeStorage()
        readyBuffer = []
        defer {
            ready.removeAll(keepingCapacity: ready.capacity <= 1024)
            readyBuffer = ready
        }
        if clock == nil {
            // Ids all distinct (the usual case): every task counts.
            ready = positions.count == tasks.count ? Array(tasks.indices) : tasks.indices.filter(isScheduled)
            // At most a due a task, as a rule: room at once, rather than a
            // doubling at every power of two.
            dues.reserveCapacity(ready.count)
        } else {
            agenda.takeAll(through: time, into: &ready)
        }
        let starting = clock == nil
        clock = time
        let tasks = self.tasks
        if starting, threads > 1, ready.count >= Self.tasksPerStartPiece * 2 {
            advanceConcurrently(ready, from: start, through: time, into: &dues)
        } else {
            makeStates()
            tasks.withUnsafeBufferPointer { tasks in
                for position in ready {
                    let task = TaskInPlace(tasks.baseAddress! + position, calendar: calendar(of: tasks.baseAddress! + position))
                    let next = Self.advanceTask(task, at: position, &states[position], from: start, through: time, into: &dues)
                    if let next { agenda.insert(Agenda.Appointment(time: next, position: position)) }
                }
            }
        }
        if let next = agenda.firstReached { prefetchTask(at: next.position) }
        if dues.count > 1 { dues.sort { ($0.time, $0.position) < ($1.time, $1.position) } }
        held = HeldDues(dues)
        // Most calls find a completion or a due already notified: no
        // outputs, and no array made for them.
        guard !dues.isEmpty else { return [] }
        return takeHeld(atMost: limit)
    }

    /// The calendar of `task`'s zone: the last one made, when the task's
    /// zone is the last one's. Made for each task woken up, from a copy of
    /// its zone, a calendar cost 180 instructions, and a retain and a
    /// release of the zone that every task of it shares.
    private mutating func calendar(of task: UnsafePointer<RecurringTask>) -> ZonedCalendar {
        if let last = lastCalendar, last.zone.isZone(of: task) { return last.calendar }
        let calendar = ZonedCalendar(timeZone: task.pointee.timeZone)
        lastCalendar = (ZoneBits(of: task), calendar)
        return calendar
    }

    /// Tasks in one piece of the clock's start that
    /// ``advanceConcurrently(_:from:through:into:)`` hands to a thread.
    private static let tasksPerStartPiece = 2048

    /// The tasks at `ready` taken from `start` to `end` as the loop of
    /// ``advanceThroughAgenda(to:)`` takes them, in pieces on up to
    /// ``threads`` threads: their dues appended to `found` and their next
    /// events put on the agenda, in `ready`'s order. When the clock starts,
    /// every task's cycle is worked out: with 100 000 tasks, 50 ms on one
    /// thread while the stages' threads waited.
    ///
    /// When every task is ready in order and ``states`` is still empty
    /// (the usual start), each piece makes its own tasks' states as it
    /// goes: made at once on this thread, the states of 100 000 tasks (11
    /// MB of fresh pages) took 4 ms while the other threads waited.
    ///
    /// The pieces share nothing they write. Each works in calendars of its
    /// own (``ZonedCalendar/unshared(timeZone:)``), and finds a task's by
    /// the index of its zone, read before on this thread: the zone that
    /// every task of it shares is one object, whose count of references,
    /// like the lock of the zone's shared offsets, went back and forth
    /// between the threads, which made the start slower than on one thread.
    private mutating func advanceConcurrently(_ ready: [Int], from start: Date, through end: Date, into found: inout [Due]) {
        let pieces = (ready.count + Self.tasksPerStartPiece - 1) / Self.tasksPerStartPiece
        let (tasks, threads) = (self.tasks, self.threads)
        var zones: [TimeZone] = []
        var last: (zone: ZoneBits, index: Int)?
        let zoneIndices = tasks.withUnsafeBufferPointer { tasks in
            ready.map { position in
                let task = tasks.baseAddress! + position
                if let last, last.zone.isZone(of: task) { return last.index }
                let zone = task.pointee.timeZone
                let index = zones.firstIndex(of: zone) ?? zones.count
                if index == zones.count { zones.append(zone) }
                last = (ZoneBits(of: task), index)
                return index
            }
        }
        let makingStates = states.isEmpty && ready.count == tasks.count
        func advancePieces(states: UnsafeMutablePointer<TaskState>) -> [StartPiece] {
            tasks.withUnsafeBufferPointer { tasks in
                let shared = StartPieces(tasks: tasks.baseAddress!, states: states)
                return parallelMap(count: pieces, jobs: threads) { [zones] index in
                    let range = (index * Self.tasksPerStartPiece)..<min(ready.count, (index + 1) * Self.tasksPerStartPiece)
                    // Every task is ready, in order: its offset is its position.
                    if makingStates { (shared.states + range.lowerBound).initialize(repeating: TaskState(), count: range.count) }
                    var piece = StartPiece()
                    var calendars: [ZonedCalendar?] = Array(repeating: nil, count: zones.count)
                    // The calendar of the last task's zone, taken out of
                    // `calendars` only when the zone changes: copied out
                    // and back for every task, it was retained twice a task.
                    var (zone, calendar) = (-1, ZonedCalendar?.none)
                    for offset in range {
                        let position = ready[offset]
                        if zoneIndices[offset] != zone {
                            zone = zoneIndices[offset]
                            calendar = calendars[zone] ?? ZonedCalendar.unshared(timeZone: zones[zone])
                            calendars[zone] = calendar
                        }
                        let task = TaskInPlace(shared.tasks + position, calendar: calendar)
                        let next = Self.advanceTask(
                            task, at: position, &shared.states[position], from: start, through: end, into: &piece.dues)
                        if let next { piece.appointments.insert(Agenda.Appointment(time: next, position: position)) }
                    }
                    return piece
                }
            }
        }
        var results: [StartPiece] = []
        if makingStates {
            states = Array(unsafeUninitializedCapacity: tasks.count) { states, made in
                results = advancePieces(states: states.baseAddress!)
                made = tasks.count
            }
        } else {
            makeStates()
            results = states.withUnsafeMutableBufferPointer { advancePieces(states: $0.baseAddress!) }
        }
        for piece in results {
            found.append(contentsOf: piece.dues)
            agenda.insert(piece.appointments)
        }
    }

    /// What one piece of ``advanceConcurrently(_:from:through:into:)`` found.
    private struct StartPiece: Sendable {
        var dues: [Due] = []
        var appointments = Agenda.Batch()
    }

    /// The tasks and their states as the pieces of the clock's start share
    /// them: each piece reads and writes only its own tasks' positions.
    private struct StartPieces: @unchecked Sendable {
        let tasks: UnsafePointer<RecurringTask>
        let states: UnsafeMutablePointer<TaskState>
    }

    /// Starts loading what waking the task at `position` reads first: its
    /// state and the start of the task (see ``RecurringTask``'s order).
    /// With 100 000 tasks, these are cache misses; the call that wakes the
    /// task comes some fixes later, by when they are loaded.
    private func prefetchTask(at position: Int) {
        states.withUnsafeBufferPointer { Self.prefetch($0.baseAddress! + position, bytes: MemoryLayout<TaskState>.size) }
        tasks.withUnsafeBufferPointer { Self.prefetch($0.baseAddress! + position, bytes: Self.taskBytesWokenUp) }
    }

    /// The bytes of a task that waking it reads: up to its completions.
    private static let taskBytesWokenUp =
        MemoryLayout<RecurringTask>.offset(of: \RecurringTask.completions)! + MemoryLayout<[Date]>.size

    /// Prefetches every cache line of the `bytes` from `start`.
    private static func prefetch<Value>(_ start: UnsafePointer<Value>, bytes: Int) {
        let start = UnsafeRawPointer(start)
        for offset in stride(from: 0, to: bytes, by: 64) { repeat_prefetch(start + offset) }
        repeat_prefetch(start + (bytes - 1))
    }

    /// Puts the task at `position` on the agenda for its next event after
    /// `time`, from its cycle at `time`.
    private mutating func schedule(_ position: Int, after time: Date) {
        let tasks = self.tasks
        let next = tasks.withUnsafeBufferPointer { tasks in
            let task = TaskInPlace(tasks.baseAddress! + position)
            return Self.nextEvent(of: task, &states[position], after: time, cycle: task.cycle(at: time))
        }
        if let next { agenda.insert(Agenda.Appointment(time: next, position: position)) }
    }

    /// Takes `task`, at `position`, from `start` to `end`: appends its dues
    /// on the way to `found` and returns when its next event comes.
    private static func advanceTask(
        _ task: TaskInPlace, at position: Int, _ state: inout TaskState, from start: Date, through end: Date,
        into found: inout [Due]
    ) -> Date? {
        let cycle = dues(of: task, at: position, &state, from: start, through: end, into: &found)
        state.cycleAtLastEvent = .known(cycle)
        return nextEvent(of: task, &state, after: end, cycle: cycle)
    }

    /// When something next happens to a task after `time`, given its
    /// `cycle` at `time`: its unnotified due time or its next completion.
    private static func nextEvent(of task: TaskInPlace, _ state: inout TaskState, after time: Date, cycle: Cycle?) -> Date? {
        guard let cycle else { return nil }
        let completion = state.firstCompletion(of: task, after: time)
        let due = state.lastDueNotified == cycle.due ? nil : Swift.max(cycle.due, time.addingTimeInterval(1e-6))
        switch (due, completion) {
        case let (d?, c?): return Swift.min(d, c)
        case let (d?, nil): return d
        case let (nil, c?): return c
        case (nil, nil): return nil
        }
    }

    /// Replaces the tasks' values (new completions from another shell, an
    /// edited schedule) while keeping what was already notified; tasks not
    /// known before are added, tasks no longer given are dropped.
    public mutating func update(tasks: [RecurringTask]) {
        precondition(!holdsOutputs, "the outputs held back are taken first")
        let positions = Self.positions(of: tasks)
        var states = Array(repeating: TaskState(), count: tasks.count)
        for (id, position) in positions.entries {
            guard let old = self.positions[id], self.states.indices.contains(old) else { continue }
            states[position] = self.states[old]
            // The task may have changed: its cycle is worked out anew.
            states[position].forgetTask()
        }
        self.tasks = tasks
        self.positions = positions
        self.states = states
        agenda.removeAll()
        guard let clock else { return }
        for position in tasks.indices where isScheduled(position) {
            schedule(position, after: clock)
        }
    }

    /// The recurrence gate's answer to an arrival at one of a task's places;
    /// `nil` for an unknown task. With `blockedBy`, an arrival that the gate
    /// would let through is suppressed for that cause instead (a platform
    /// limit or the accuracy gate kept it from the app) and changes nothing.
    public mutating func arrival(
        taskID: String, at time: Date, region: String?, device: String?, distance: Double?,
        blockedBy: SuppressionCause? = nil
    ) -> SchedulerOutput? {
        precondition(!holdsOutputs, "the outputs held back are taken first")
        guard let position = positions[taskID] else { return nil }
        makeStates()
        return Self.arrival(
            of: tasks[position], taskID: taskID, title: tasks[position].title, at: time, region: region, device: device,
            distance: distance, blockedBy: blockedBy, settings: settings,
            lastLocationNotification: &states[position].lastLocationNotification)
    }

    /// The gate's answer to an arrival for `task`, reported as `taskID`
    /// and `title`; a reminder sets `lastLocationNotification`.
    static func arrival(
        of task: RecurringTask, taskID: String, title: String, at time: Date, region: String?, device: String?,
        distance: Double?, blockedBy: SuppressionCause?, settings: Settings, lastLocationNotification: inout Date?
    ) -> SchedulerOutput {
        let decision = task.locationDecision(
            at: time, lastLocationNotification: lastLocationNotification, cooldown: settings.cooldown, lead: settings.lead)
        func suppression(_ cause: SuppressionCause) -> SchedulerOutput {
            .suppress(Suppression(time: time, taskID: taskID, cause: cause, region: region, device: device, distance: distance))
        }
        switch decision {
        case .suppress(let reason):
            return suppression(.gate(reason))
        case .notify where blockedBy != nil:
            return suppression(blockedBy!)
        case .notify(let cycle):
            lastLocationNotification = time
            return .notify(
                TaskNotification(
                    kind: .location, time: time, taskID: taskID, title: title, region: region, device: device,
                    distance: distance, due: cycle.due, windowStart: cycle.windowStart))
        }
    }

    /// A due notification found on the clock's way (see ``HeldDues/Due``).
    private typealias Due = HeldDues.Due

    /// Appends to `found` the due times of `task`'s cycles that the clock
    /// passes on its way from `start` to `end`, each cycle once; a cycle
    /// already overdue at `start` fires at `start`. Returns the task's
    /// cycle at `end`.
    private static func dues(
        of task: TaskInPlace, at position: Int, _ state: inout TaskState, from start: Date, through end: Date,
        into found: inout [Due]
    ) -> Cycle? {
        var cursor = start
        var current: Cycle?
        switch state.cycleAtLastEvent {
        case .known(let cycle):
            // No event of the task since, so no completion: the same cycle,
            // unless the task has ended.
            current = task.end.map { start > $0 } == true ? nil : cycle
        case .unknown:
            current = task.cycle(at: cursor)
        }
        while let cycle = current {
            let nextCompletion = state.firstCompletion(of: task, after: cursor).flatMap { $0 <= end ? $0 : nil }
            let notified = state.lastDueNotified == cycle.due
            if !notified, cycle.due <= end, nextCompletion.map({ $0 > cycle.due }) ?? true {
                let time = max(cycle.due, start)
                found.append((time, position, cycle))
                state.lastDueNotified = cycle.due
                // No completion comes by `time`, so the cycle at `time` is
                // this one, or none once the task has ended (see below).
                cursor = time
                continue
            }
            guard let completion = nextCompletion else { break }
            cursor = completion
            current = task.cycle(at: cursor)
        }
        guard let cycle = current else { return task.cycle(at: end) }
        // No completion comes after `cursor` by `end` either: the cycle at
        // `end` is this one, unless the task has ended.
        if let taskEnd = task.end, end > taskEnd { return nil }
        return cycle
    }
}

/// A task's zone told by the bits of its value: a task whose zone has the
/// bits of another's has the same zone (the same object), told without a
/// copy of it, whose count of references each copy changes — the zone that
/// 100 000 tasks share, on every thread at once. Bits that differ may still
/// be the same zone, which a caller then compares as values.
private struct ZoneBits: Sendable {
    private static let offset = MemoryLayout<RecurringTask>.offset(of: \RecurringTask.timeZone)!
    /// Whether a zone's bits fit ``bits``; if not, no zone is told by them.
    private static let fits = MemoryLayout<TimeZone>.size <= MemoryLayout<SIMD2<UInt64>>.size
    /// The zone's bits, then zeros.
    private let bits: SIMD2<UInt64>

    /// The bits of `task`'s zone.
    init(of task: UnsafePointer<RecurringTask>) { bits = Self.bits(of: task) }

    /// Whether `task`'s zone has these bits.
    func isZone(of task: UnsafePointer<RecurringTask>) -> Bool { Self.fits && Self.bits(of: task) == bits }

    private static func bits(of task: UnsafePointer<RecurringTask>) -> SIMD2<UInt64> {
        var bits = SIMD2<UInt64>()
        guard fits else { return bits }
        withUnsafeMutableBytes(of: &bits) {
            $0.copyMemory(
                from: UnsafeRawBufferPointer(start: UnsafeRawPointer(task) + offset, count: MemoryLayout<TimeZone>.size))
        }
        return bits
    }
}
