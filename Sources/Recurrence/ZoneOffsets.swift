import Foundation
import Synchronization

extension TimeZone {
    /// The zone's offset from UTC at `date`, in seconds: what
    /// `secondsFromGMT(for:)` answers, remembered for the span up to the
    /// zone's next transition, so that a run asking about the same weeks
    /// again and again (every task's cycle at every due) asks ICU once
    /// per span instead of behind its lock each time.
    public func utcOffset(at date: Date) -> Int { ZoneOffsets.shared.offset(of: self, at: date) }
}

/// The spans of constant UTC offset found so far, per zone.
///
/// A span runs from an instant ICU was asked about to the zone's next
/// transition after it (`nextDaylightSavingTimeTransition(after:)`, which
/// ICU takes from every rule change, not only daylight saving), so every
/// instant in it has the offset asked for. Spans that end at the same
/// transition are one span reaching back to the earliest instant asked.
final class ZoneOffsets: Sendable {
    /// One span: `offset` on `start ..< end` (seconds since 1970).
    private struct Span {
        var start: Double
        var end: Double
        var offset: Int
    }

    /// The spans kept per zone, at most; the oldest goes first.
    private static let spansPerZone = 32

    static let shared = ZoneOffsets()

    /// The spans of each zone asked about. Zones are few and the same
    /// instance comes back (Foundation shares them), so a linear search by
    /// `==`, which compares identity first, beats hashing the identifier.
    private let zones = Mutex<[(zone: TimeZone, spans: [Span])]>([])

    /// The offset of `zone` at `date`.
    func offset(of zone: TimeZone, at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        let known = zones.withLock { zones -> Int? in
            for index in zones.indices where zones[index].zone == zone {
                // The span hit last is first: instants asked in a row are near.
                guard let hit = zones[index].spans.firstIndex(where: { $0.start <= seconds && seconds < $0.end }) else {
                    return nil
                }
                if hit != 0 { zones[index].spans.swapAt(0, hit) }
                return zones[index].spans[0].offset
            }
            return nil
        }
        if let known { return known }
        let offset = zone.secondsFromGMT(for: date)
        guard seconds.isFinite else { return offset }
        let end = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        guard end > seconds else { return offset }
        zones.withLock { zones in
            guard let index = zones.firstIndex(where: { $0.zone == zone }) else {
                return zones.append((zone, [Span(start: seconds, end: end, offset: offset)]))
            }
            if let same = zones[index].spans.firstIndex(where: { $0.end == end && $0.offset == offset }) {
                zones[index].spans[same].start = min(zones[index].spans[same].start, seconds)
            } else {
                if zones[index].spans.count >= Self.spansPerZone { zones[index].spans.removeFirst() }
                zones[index].spans.append(Span(start: seconds, end: end, offset: offset))
            }
        }
        return offset
    }
}
