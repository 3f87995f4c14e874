import GeoCore

/// Which sentence gave an epoch its position; a higher rank wins.
enum NMEAPositionSource: Int, Comparable {
    case gll = 1
    case rmc = 2
    case gga = 3

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Merges the sentences of one receiver cycle into one fix.
///
/// Sentences that carry the same UTC time of day form an epoch; a
/// sentence with another time closes the epoch and starts the next one.
/// Sentences without a time (VTG, GSA) belong to the epoch in progress.
///
/// Dates: an epoch takes the date of its own RMC/ZDA; otherwise the last
/// date seen is carried forward, and moves to the next day when the time
/// of day falls back by more than 12 hours (midnight). Before any date the
/// `defaultDate` option (`--date`) applies, with the same rollover; an
/// epoch before the first date is held back (up to
/// ``maximumUndatedEpochs``) and back-filled once a date arrives, as
/// GPSBabel does; at the end of input, still undated fixes are reported
/// as `noDate`.
///
/// GLL copies: in a stream that has shown GGA/RMC positions, some
/// receivers also send each cycle's position as a GLL stamped with
/// another time — a second late (Garmin 48), or a few milliseconds off
/// because their GLL has millisecond and their GGA/RMC centisecond
/// resolution (Magellan eXplorist: GLL 20:06:21.297, GGA 20:06:21.30).
/// An epoch whose only position is such a GLL adds nothing and is dropped
/// (counted in ``strayGLLEpochs``): when it lies within
/// ``strayGLLTolerance`` of the GGA/RMC epoch before or after it (so a
/// GLL-only epoch waits for the next epoch before it is emitted), or when
/// it repeats the position of the GGA/RMC epoch just before it in a stream
/// whose GLLs never share a GGA/RMC epoch's time (the receiver stamps its
/// GLL apart). Every other GLL-only epoch is a fix, even one that repeats
/// a position: a receiver standing still.
struct NMEAEpochAssembler {
    struct Epoch {
        var timeOfDay: Int64
        var fractionDigits: UInt8
        var location: FeedLocation
        var date: Int?
        var coordinate: Coordinate?
        var source: NMEAPositionSource?
        var sawInvalid = false
        var elevation: Double?
        var speed: Double?
        var course: Double?
        var hdop: Double?
        var hdopFromGGA = false
    }

    /// The epoch in progress, valid while ``hasEpoch`` (a plain value,
    /// not an optional, so that updates happen in place).
    private(set) var epoch = Epoch(timeOfDay: 0, fractionDigits: 0, location: FeedLocation(line: 0, byteOffset: 0))
    private(set) var hasEpoch = false
    private var invalidReason = ""
    private var sawGGAOrRMCPosition = false
    /// Whether a GLL ever shared an epoch with a GGA/RMC position: then
    /// the receiver stamps its GLL with the cycle's own time.
    private var gllSharedAnEpoch = false
    private var lastCoordinate: Coordinate?
    /// Whether the last positioned epoch was positioned by GGA/RMC.
    private var lastWasGGAOrRMC = false
    /// The time of day of the last fix positioned by GGA/RMC.
    private var lastGGAOrRMCTimeOfDay: Int64?
    /// A GLL-only epoch waiting for the next epoch, which may show it to be a copy.
    private var pendingGLL: Epoch?
    /// GLL-only epochs dropped as copies of a GGA/RMC fix.
    private(set) var strayGLLEpochs = 0
    private var undated: [(fix: Fix, timeOfDay: Int64, location: FeedLocation)] = []
    private var carriedDay: Int?
    private var carriedTimeOfDay: Int64 = 0
    private let defaultDate: Int?
    /// The last RMC date read, as its day.
    var dates = NMEAFieldMemo<Int?>()
    /// The last time of day read (the GGA's, which the RMC of its epoch repeats).
    var times = NMEAFieldMemo<FieldValue<(nanoseconds: Int64, fractionDigits: UInt8)>>()

    /// Undated epochs held back, waiting for a date to back-fill.
    static let maximumUndatedEpochs = 3600

    /// How far (in time) a GLL-only epoch may lie from a GGA/RMC epoch to
    /// count as its copy: one centisecond, the resolution of `hhmmss.ss`.
    static let strayGLLTolerance: Int64 = 10_000_000

    private static let halfDay: Int64 = 12 * 3600 * 1_000_000_000
    /// How far the times of day of held epochs may step back without
    /// crossing a midnight: out-of-order sentences, not a day.
    private static let heldDisorder: Int64 = 3600 * 1_000_000_000
    private static let day: Int64 = 24 * 3600 * 1_000_000_000

    init(defaultDate: Int?) {
        self.defaultDate = defaultDate
    }

    /// Makes the epoch at `timeOfDay` current, emitting the previous one
    /// if its time differs.
    @inline(__always)
    mutating func enter(
        timeOfDay: Int64, fractionDigits: UInt8, at location: FeedLocation, into batch: inout FeedBatch
    ) {
        if hasEpoch, epoch.timeOfDay == timeOfDay { return }
        flush(into: &batch)
        epoch = Epoch(timeOfDay: timeOfDay, fractionDigits: fractionDigits, location: location)
        hasEpoch = true
    }

    /// The sentence that gave the epoch in progress its position so far.
    var positionSource: NMEAPositionSource? { hasEpoch ? epoch.source : nil }

    /// Offers a position; the best-ranked valid one of the epoch is kept.
    @inline(__always)
    mutating func offerPosition(_ coordinate: Coordinate, from source: NMEAPositionSource) {
        guard hasEpoch else { return }
        if source != .gll { sawGGAOrRMCPosition = true }
        if let existing = epoch.source, (existing == .gll) != (source == .gll) { gllSharedAnEpoch = true }
        if let existing = epoch.source, existing >= source { return }
        epoch.coordinate = coordinate
        epoch.source = source
    }

    /// Records that a sentence of the epoch reported no valid fix.
    mutating func markInvalid(_ reason: String) {
        guard hasEpoch, !epoch.sawInvalid else { return }
        epoch.sawInvalid = true
        invalidReason = reason
    }

    /// Applies a change to the epoch in progress, if there is one.
    @inline(__always)
    mutating func update(_ change: (inout Epoch) -> Void) {
        guard hasEpoch else { return }
        change(&epoch)
    }

    /// Emits the epoch in progress (a fix, or a diagnostic saying why
    /// not); a GLL-only epoch in a GGA/RMC stream waits for the next one.
    mutating func flush(into batch: inout FeedBatch) {
        guard hasEpoch else { return }
        hasEpoch = false
        let current = epoch
        if let pending = pendingGLL {
            pendingGLL = nil
            if let source = current.source, source > .gll,
                Self.distance(current.timeOfDay, pending.timeOfDay) <= Self.strayGLLTolerance
            {
                strayGLLEpochs += 1
            } else {
                emit(pending, into: &batch)
            }
        }
        if current.source == .gll, sawGGAOrRMCPosition {
            let repeatsCycle = !gllSharedAnEpoch && lastWasGGAOrRMC && current.coordinate == lastCoordinate
            if repeatsCycle
                || lastGGAOrRMCTimeOfDay.map({ Self.distance(current.timeOfDay, $0) <= Self.strayGLLTolerance }) == true
            {
                strayGLLEpochs += 1
            } else {
                pendingGLL = current
            }
            return
        }
        emit(current, into: &batch)
    }

    /// Emits the epoch in progress and a GLL-only epoch still waiting.
    mutating func flushAll(into batch: inout FeedBatch) {
        flush(into: &batch)
        if let pending = pendingGLL {
            pendingGLL = nil
            emit(pending, into: &batch)
        }
    }

    /// The time between two times of day, across midnight.
    private static func distance(_ a: Int64, _ b: Int64) -> Int64 {
        let forward = (a - b + day) % day
        return min(forward, day - forward)
    }

    /// Turns a finished epoch into a fix (or a diagnostic saying why not).
    private mutating func emit(_ current: Epoch, into batch: inout FeedBatch) {
        let resolvedDay = resolveDay(current)
        if let day = resolvedDay { backfill(day: day, timeOfDay: current.timeOfDay, into: &batch) }
        guard let coordinate = current.coordinate else {
            if let day = resolvedDay {
                batch.epochsWithoutFix.append(
                    EpochWithoutFix(time: Timestamp(nanoseconds: Int64(day) * Self.day + current.timeOfDay)))
            }
            if current.sawInvalid {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .invalidFix, at: current.location,
                        "epoch \(Self.clock(current.timeOfDay)) UTC: \(invalidReason)"))
            }
            return
        }
        lastCoordinate = coordinate
        lastWasGGAOrRMC = current.source != .gll
        if lastWasGGAOrRMC { lastGGAOrRMCTimeOfDay = current.timeOfDay }
        var fix = Fix(
            time: nil, coordinate: coordinate, elevation: current.elevation, speed: current.speed,
            course: current.course, hdop: current.hdop)
        guard let day = resolvedDay else {
            holdUndated(fix, current, into: &batch)
            return
        }
        fix.time = Timestamp(
            nanoseconds: Int64(day) * Self.day + current.timeOfDay, fractionDigits: current.fractionDigits)
        batch.fixes.append(consume fix)
    }

    /// Ends the input: epochs still waiting for a date are reported.
    mutating func finish(into batch: inout FeedBatch) {
        flushAll(into: &batch)
        for held in undated { reportNoDate(held.timeOfDay, at: held.location, into: &batch) }
        undated.removeAll()
    }

    /// Keeps a fix that has no date yet (GGA before the first RMC/ZDA), up
    /// to a bound; the oldest beyond it is reported as `noDate`.
    private mutating func holdUndated(_ fix: Fix, _ epoch: Epoch, into batch: inout FeedBatch) {
        if undated.count == Self.maximumUndatedEpochs {
            let oldest = undated.removeFirst()
            reportNoDate(oldest.timeOfDay, at: oldest.location, into: &batch)
        }
        var stamped = fix
        stamped.time = Timestamp(nanoseconds: epoch.timeOfDay, fractionDigits: epoch.fractionDigits)
        undated.append((stamped, epoch.timeOfDay, epoch.location))
    }

    /// Dates the held fixes from the first known date, walking back from
    /// it, and emits them in input order. Going backwards, a time of day
    /// that rises by more than ``heldDisorder`` crossed a midnight: it is
    /// the previous day. So no back-filled fix is dated after the fix that
    /// follows it, unless the input's own times step back (by an hour at
    /// most), which is kept as it was.
    private mutating func backfill(day: Int, timeOfDay: Int64, into batch: inout FeedBatch) {
        guard !undated.isEmpty else { return }
        var currentDay = day
        var laterTime = timeOfDay
        var days = [Int](repeating: 0, count: undated.count)
        for k in stride(from: undated.count - 1, through: 0, by: -1) {
            if undated[k].timeOfDay > laterTime + Self.heldDisorder { currentDay -= 1 }
            days[k] = currentDay
            laterTime = undated[k].timeOfDay
        }
        for (k, held) in undated.enumerated() {
            var fix = held.fix
            fix.time = Timestamp(
                nanoseconds: Int64(days[k]) * Self.day + held.timeOfDay, fractionDigits: held.fix.time?.fractionDigits ?? 0)
            batch.fixes.append(fix)
        }
        undated.removeAll(keepingCapacity: true)
    }

    private func reportNoDate(_ timeOfDay: Int64, at location: FeedLocation, into batch: inout FeedBatch) {
        batch.diagnostics.append(
            FeedDiagnostic(
                .noDate, at: location,
                "fix at \(Self.clock(timeOfDay)) UTC has no date (no RMC/ZDA in the log); give --date YYYY-MM-DD for logs without dates"
            ))
    }

    /// The epoch's day: its own date, else the carried one (with midnight
    /// rollover), else `--date`; remembers it for the next epoch.
    private mutating func resolveDay(_ epoch: Epoch) -> Int? {
        var day: Int
        if let own = epoch.date {
            day = own
        } else if let carried = carriedDay ?? defaultDate {
            day = carried
            // On the last day a timestamp holds, times of day that fall back stay on it.
            if carriedDay != nil, epoch.timeOfDay < carriedTimeOfDay - Self.halfDay,
                day < FeedDecodingOptions.datesHeld.upperBound
            {
                day += 1
            }
        } else {
            return nil
        }
        carriedDay = day
        carriedTimeOfDay = epoch.timeOfDay
        return day
    }

    private static func clock(_ nanoseconds: Int64) -> String {
        let seconds = Int(nanoseconds / 1_000_000_000)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}
