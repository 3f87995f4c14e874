import Foundation
import Recurrence
import Testing

/// The seed story: cat medicine every 10–14 weeks, anchored on when it was
/// actually bought, against a fixed 12-week schedule that drifts.
@Suite("The cat-medicine story")
struct CatMedicineStoryTests {
    // Start Mon 2025-01-06 09:00 Berlin (08:00Z).
    let start = "2025-01-06T09:00:00+01:00"

    @Test("three cycles, each stretched to 14 weeks")
    func flexibleCycles() {
        var cat = task(.afterCompletion(min: weeks(10), max: weeks(14)), start: start, zone: berlin)
        // Cycle 1: window Mon 2025-03-17 09:00 CET, due Mon 2025-04-14 09:00 CEST.
        // Week 9 (2025-03-10): passing the pharmacy does not remind.
        #expect(cat.locationDecision(at: at("2025-03-10T17:00:00+01:00"), lastLocationNotification: nil) == .suppress(.notDue))
        // Sunday 2025-03-16 10:00 is within 24 h of the window: it reminds.
        #expect(cat.status(at: at("2025-03-16T10:00:00+01:00")).state == .dueSoon)
        // Week 10 (2025-03-17): inside the window, the pharmacy reminds.
        if case .suppress(let reason) = cat.locationDecision(at: at("2025-03-17T17:00:00+01:00"), lastLocationNotification: nil) {
            Issue.record("week 10 should remind, got \(reason)")
        }
        // Bought at the last moment: 2025-04-14 08:00 CEST.
        cat.complete(at: at("2025-04-14T08:00:00+02:00"))
        // Cycle 2 anchored there: window 2025-06-23 08:00 CEST, due 2025-07-21 08:00 CEST.
        let second = cat.cycle(at: at("2025-04-15T00:00:00Z"))
        #expect(second?.windowStart == at("2025-06-23T08:00:00+02:00"))
        #expect(second?.due == at("2025-07-21T08:00:00+02:00"))
        cat.complete(at: at("2025-07-21T07:30:00+02:00"))
        // Cycle 3 crosses the end of DST: due 2025-10-27 07:30 CET (the wall time is kept).
        #expect(cat.cycle(at: at("2025-08-01T00:00:00Z"))?.due == at("2025-10-27T07:30:00+01:00"))
        #expect(cat.cycle(at: at("2025-08-01T00:00:00Z"))?.number == 2)
        // Never overdue at any point: each purchase was within its window.
        for day in stride(from: 0.0, to: 300, by: 1) {
            let time = at("2025-01-06T08:00:00Z").addingTimeInterval(day * 86_400)
            #expect(cat.status(at: time).state != .overdue || time > at("2025-10-27T06:30:00Z"))
        }
    }

    @Test("a fixed 12-week schedule drifts against the same purchases")
    func fixedDrifts() {
        // The grid: start + 12w = 2025-03-31, + 24w = 2025-06-23, + 36w = 2025-09-15.
        let fixed = task(
            .fixed(every: weeks(12)), start: start, zone: berlin,
            completions: ["2025-04-14T08:00:00+02:00"])
        // After buying on 2025-04-14 (two weeks past the 2025-03-31 due date), the next reminder
        // is 2025-06-23: ten weeks later, not the twelve the person actually needs.
        let next = fixed.cycle(at: at("2025-04-15T00:00:00Z"))
        #expect(next?.due == at("2025-06-23T09:00:00+02:00"))
        let flexible = task(
            .afterCompletion(min: weeks(12), max: weeks(12)), start: start, zone: berlin,
            completions: ["2025-04-14T08:00:00+02:00"])
        #expect(flexible.cycle(at: at("2025-04-15T00:00:00Z"))?.due == at("2025-07-07T08:00:00+02:00"))
    }
}
