import Foundation
import Recurrence
import Testing

/// `TimeZone.utcOffset(at:)` remembers spans between transitions: it must
/// answer what ICU answers at every instant, asked in any order.
@Suite("UTC offsets remembered between transitions")
struct ZoneOffsetsTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia",
        "America/Sao_Paulo", "Europe/Moscow", "Africa/Casablanca", "UTC",
    ]

    @Test("random instants 1900–2100, in random order, and around each transition", arguments: zones)
    func matchesICU(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var generator = SystemRandomNumberGenerator()
        var instants = (0..<3_000).map { _ in Double.random(in: -2_208_988_800...4_102_444_800, using: &generator) }
        // Every transition from 1970 to 2040, and the seconds either side.
        var cursor = Date(timeIntervalSince1970: 0)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < 2_208_988_800 {
            let t = next.timeIntervalSince1970
            instants += [t - 1, t - 0.001, t, t + 0.5, t + 1, t - 86_400, t + 129_600]
            cursor = next
        }
        instants.shuffle(using: &generator)
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(zone.utcOffset(at: date) == zone.secondsFromGMT(for: date), "\(identifier) at \(date)")
        }
    }
}
