import Foundation
import Recurrence
import Synchronization
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
    // The span found last is read without a lock, while another thread may
    // be replacing it: a reader must never take half of one span and half
    // of another. Instants either side of every transition of 2000–2030,
    // asked by four threads in different orders, keep the span replaced.
    // A race can slip by: a reader that skipped the version's check failed
    // this test in one run of six.
    @Test("threads asking one zone at once get ICU's answers", arguments: ["Europe/Berlin", "Australia/Lord_Howe"])
    func concurrentAnswers(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var instants: [Double] = []
        var cursor = Date(timeIntervalSince1970: 946_684_800)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < 1_893_456_000 {
            let t = next.timeIntervalSince1970
            instants += [t - 1, t, t + 1, t - 3_600, t + 3_600]
            cursor = next
        }
        let asked = instants
        let expected = asked.map { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) }
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<200 {
                for step in 0..<asked.count {
                    // Each thread and round its own order: a stride through the asked.
                    let index = (step * (2 * thread + 1) + round) % asked.count
                    let offset = zone.utcOffset(at: Date(timeIntervalSince1970: asked[index]))
                    if offset != expected[index] {
                        wrong.withLock { $0.append("\(asked[index]): \(offset) for \(expected[index])") }
                    }
                }
            }
        }
        let found = wrong.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) wrong, first \(found.prefix(3))")
    }
}
