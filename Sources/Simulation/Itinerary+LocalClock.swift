import Foundation
import GeoCore

/// Local wall-clock times in a zone, turned into instants by the project's
/// policy (DESIGN.md, "Recurrence semantics"):
///
/// - a local time that does not exist moves forward by the gap: Berlin,
///   2025-03-30, 02:30 (clocks jump 02:00 → 03:00) is 03:30 CEST, 01:30Z;
/// - a local time that happens twice takes the first: Berlin, 2025-10-26,
///   02:30 is 00:30Z (CEST), not 01:30Z (CET).
struct LocalClock {
    let zone: TimeZone

    /// The instant of `secondsOfDay` after local midnight on `day` (days
    /// since 1970-01-01).
    func instant(day: Int, secondsOfDay: Int) -> Timestamp {
        let wall = Int64(day) * 86_400 + Int64(secondsOfDay)
        // The offsets in force a day and a half either side bracket any one
        // transition; an offset fits if it is the one in force at the instant it gives.
        let before = offset(at: wall - 129_600)
        let after = offset(at: wall + 129_600)
        let fitting = Set([before, after, offset(at: wall)]).map { wall - $0 }.filter { offset(at: $0) == wall - $0 }
        // Repeated: the first; skipped: read with the offset from before the gap.
        let seconds = fitting.min() ?? wall - before
        return Timestamp(nanoseconds: seconds * 1_000_000_000)
    }

    /// The local day (since 1970-01-01) `instant` falls on.
    func day(of instant: Timestamp) -> Int {
        let seconds = Int64((instant.secondsSince1970).rounded(.down))
        let wall = seconds + offset(at: seconds)
        return Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
    }

    private func offset(at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }
}
