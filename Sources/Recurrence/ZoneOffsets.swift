import Foundation
import Synchronization

extension TimeZone {
    /// The zone's offset from UTC at `date`, in seconds: what
    /// `secondsFromGMT(for:)` answers, remembered for the span up to the
    /// zone's next transition, so that a run asking about the same weeks
    /// again and again (every task's cycle at every due) asks ICU once
    /// per span instead of behind its lock each time.
    public func utcOffset(at date: Date) -> Int { ZoneOffsets.table(for: self).offset(at: date) }
}

/// The ``ZoneOffsetTable`` of each zone asked about, one per zone for the
/// life of the process.
enum ZoneOffsets {
    /// Zones are few and the same instance comes back (Foundation shares
    /// them), so a linear search by `==`, which compares identity first,
    /// beats hashing the identifier.
    private static let tables = Mutex<[ZoneOffsetTable]>([])

    /// The table of `zone`. Code that asks about one zone many times (a
    /// task's calendar) keeps it, and skips this search.
    static func table(for zone: TimeZone) -> ZoneOffsetTable {
        tables.withLock { tables in
            if let table = tables.first(where: { $0.zone == zone }) { return table }
            let table = ZoneOffsetTable(zone: zone)
            tables.append(table)
            return table
        }
    }
}

/// The spans of constant UTC offset of one zone found so far.
///
/// A span runs from an instant ICU was asked about to the zone's next
/// transition after it (`nextDaylightSavingTimeTransition(after:)`, which
/// ICU takes from every rule change, not only daylight saving), so every
/// instant in it has the offset asked for. Spans that end at the same
/// transition are one span reaching back to the earliest instant asked;
/// a new span reaches back two days when no transition comes between.
final class ZoneOffsetTable: Sendable {
    /// One span: `offset` on `start ..< end` (seconds since 1970).
    struct Span {
        var start: Double
        var end: Double
        var offset: Int

        func contains(_ seconds: Double) -> Bool { start <= seconds && seconds < end }
    }

    /// The spans kept, at most; the oldest goes first.
    private static let capacity = 32
    /// How far back a new span is checked to reach.
    private static let lookBack: Double = 172_800

    let zone: TimeZone
    private let spans = Mutex<[Span]>([])
    /// The span found last, read without the lock (a sequence lock: its
    /// version is odd while it is written, and a reader that sees the
    /// version change takes the lock instead). A run asks about the same
    /// span again and again, and the lock's two atomic operations were
    /// most of the answer's cost (4 % of the clock's start with 100 000
    /// tasks). Written only with `spans` locked.
    private let lastVersion = Atomic<UInt>(0)
    private let lastStart = Atomic<UInt64>(Double.nan.bitPattern)
    private let lastEnd = Atomic<UInt64>(Double.nan.bitPattern)
    private let lastOffset = Atomic<Int>(0)

    init(zone: TimeZone) { self.zone = zone }

    /// The offset at `date`.
    func offset(at date: Date) -> Int { span(at: date.timeIntervalSince1970).offset }

    /// A span of constant offset that holds `seconds` (seconds since 1970);
    /// for an instant that is not finite, an empty span with its offset.
    func span(at seconds: Double) -> Span {
        if let last = lastSpan(), last.contains(seconds) { return last }
        let known = spans.withLock { spans -> Span? in
            // The span hit last is first: instants asked in a row are near.
            guard let hit = spans.firstIndex(where: { $0.contains(seconds) }) else { return nil }
            if hit != 0 { spans.swapAt(0, hit) }
            publish(spans[0])
            return spans[0]
        }
        if let known { return known }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
        guard seconds.isFinite else { return Span(start: seconds, end: seconds, offset: offset) }
        var found = Span(start: seconds, end: nextTransition(after: seconds), offset: offset)
        guard found.end > seconds else { return Span(start: seconds, end: seconds, offset: offset) }
        if nextTransition(after: seconds - Self.lookBack) == found.end { found.start = seconds - Self.lookBack }
        spans.withLock { spans in
            if let same = spans.firstIndex(where: { $0.end == found.end && $0.offset == found.offset }) {
                spans[same].start = min(spans[same].start, found.start)
            } else {
                if spans.count >= Self.capacity { spans.removeFirst() }
                spans.append(found)
            }
            publish(found)
        }
        return found
    }

    /// The span found last, unless it is being written.
    private func lastSpan() -> Span? {
        let version = lastVersion.load(ordering: .acquiring)
        guard version & 1 == 0 else { return nil }
        let span = Span(
            start: Double(bitPattern: lastStart.load(ordering: .relaxed)),
            end: Double(bitPattern: lastEnd.load(ordering: .relaxed)), offset: lastOffset.load(ordering: .relaxed))
        // The reads above come before the version is read again.
        atomicMemoryFence(ordering: .acquiring)
        return lastVersion.load(ordering: .relaxed) == version ? span : nil
    }

    /// Makes `span` the span found last; only with `spans` locked, so
    /// that one thread writes at a time.
    private func publish(_ span: Span) {
        let version = lastVersion.load(ordering: .relaxed)
        lastVersion.store(version &+ 1, ordering: .relaxed)
        // The odd version is seen before any of the writes below.
        atomicMemoryFence(ordering: .releasing)
        lastStart.store(span.start.bitPattern, ordering: .relaxed)
        lastEnd.store(span.end.bitPattern, ordering: .relaxed)
        lastOffset.store(span.offset, ordering: .relaxed)
        lastVersion.store(version &+ 2, ordering: .releasing)
    }

    /// When the zone's offset next changes after `seconds`; infinity if it never does.
    private func nextTransition(after seconds: Double) -> Double {
        zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: seconds))?.timeIntervalSince1970 ?? .infinity
    }
}
