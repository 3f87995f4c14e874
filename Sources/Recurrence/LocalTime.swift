import Foundation
import GeoCore

/// A wall-clock date and time in some time zone, as seconds since
/// 1970-01-01T00:00:00 *local* (no zone attached).
///
/// Calendar arithmetic happens on wall-clock values; ``resolve(in:)`` turns
/// the result back into an instant with the project's named policy for the
/// two awkward cases:
///
/// - **Skipped time** (spring forward): a wall time that does not exist
///   moves forward by the length of the gap. Berlin, 2024-03-31: 02:30 does
///   not exist (clocks jump 02:00 → 03:00), so it resolves to 03:30 CEST,
///   which is 01:30Z.
/// - **Repeated time** (fall back): a wall time that happens twice takes the
///   first. Berlin, 2024-10-27: 02:30 happens at 00:30Z (CEST) and again at
///   01:30Z (CET); it resolves to 00:30Z.
struct WallClock: Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00 wall-clock time.
    var seconds: Int64

    /// The wall-clock reading of `instant` in `zone`.
    init(_ instant: Date, in zone: TimeZone) { self.init(instant, in: ZoneOffsets.table(for: zone)) }

    /// The wall-clock reading of `instant` in the zone of `offsets`.
    init(_ instant: Date, in offsets: ZoneOffsetTable) {
        let whole = Int64(instant.timeIntervalSince1970.rounded(.down))
        seconds = whole + Int64(offsets.offset(at: instant))
        fraction = instant.timeIntervalSince1970 - Double(whole)
    }

    /// A wall-clock value from its civil parts.
    init(days: Int, secondsOfDay: Int, fraction: Double = 0) {
        seconds = Int64(days) * 86_400 + Int64(secondsOfDay)
        self.fraction = fraction
    }

    /// Sub-second part, carried through arithmetic unchanged.
    var fraction: Double

    /// Days since 1970-01-01 of the wall-clock date.
    var days: Int { Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400) }

    /// Seconds since local midnight.
    var secondsOfDay: Int { Int(seconds - Int64(days) * 86_400) }

    /// The instant this wall-clock time names in `zone`, by the policy above.
    func resolve(in zone: TimeZone) -> Date { resolve(in: ZoneOffsets.table(for: zone)) }

    /// The instant this wall-clock time names in the zone of `offsets`, by
    /// the policy above.
    func resolve(in offsets: ZoneOffsetTable) -> Date {
        // Offsets never differ by more than 26 hours, so when one offset
        // holds for a day and a half either side of the instant it gives,
        // that instant is the only one with this wall-clock time: the usual
        // case, answered from one span.
        let span = offsets.span(at: Double(seconds))
        let usual = Double(seconds - Int64(span.offset))
        if span.contains(usual - Self.bracket), span.contains(usual + Self.bracket) {
            return Date(timeIntervalSince1970: usual + fraction)
        }
        // Offsets in force a day and a half either side bracket any single
        // transition; each candidate offset is checked against the instant it gives.
        let probe = Date(timeIntervalSince1970: Double(seconds))
        let before = offsets.offset(at: probe.addingTimeInterval(-Self.bracket))
        let after = offsets.offset(at: probe.addingTimeInterval(Self.bracket))
        let middle = offsets.offset(at: probe)
        var earliest: Int64?
        for (index, offset) in [before, after, middle].enumerated() {
            guard !(index >= 1 && offset == before), !(index == 2 && offset == after) else { continue }
            let instant = seconds - Int64(offset)
            if offsets.offset(at: Date(timeIntervalSince1970: Double(instant))) == offset {
                earliest = min(earliest ?? instant, instant)
            }
        }
        // Repeated: the first; skipped: shifted forward by the gap, which is
        // the wall time read with the offset from before the gap.
        let instant = earliest ?? seconds - Int64(before)
        return Date(timeIntervalSince1970: Double(instant) + fraction)
    }

    /// A day and a half, in seconds.
    private static let bracket: Double = 129_600

    /// The civil calendar date of this wall-clock time.
    var civilDate: (year: Int, month: Int, day: Int) { CivilCalendar.date(fromDays: days) }

    static func < (lhs: WallClock, rhs: WallClock) -> Bool {
        (lhs.seconds, lhs.fraction) < (rhs.seconds, rhs.fraction)
    }
}
