import Foundation
import Recurrence
import Testing

@Suite("Decisions: states, lead time, the location gate, progress")
struct DecisionTests {
    // Every 10–14 days after completion, from 2025-01-01 00:00Z:
    // window opens 2025-01-11 00:00Z, due 2025-01-15 00:00Z, lead 24 h → due-soon from 2025-01-10.
    let flexible = task(.afterCompletion(min: .init(10, .days), max: .init(14, .days)), start: "2025-01-01T00:00:00Z")

    @Test(
        "states: waiting, due-soon, window, overdue",
        arguments: [
            ("2025-01-09T23:59:59Z", TaskState.waiting),
            ("2025-01-10T00:00:00Z", .dueSoon),
            ("2025-01-10T23:59:59Z", .dueSoon),
            ("2025-01-11T00:00:00Z", .window),
            ("2025-01-15T00:00:00Z", .window),
            ("2025-01-15T00:00:01Z", .overdue),
        ])
    func states(time: String, expected: TaskState) {
        #expect(flexible.status(at: at(time)).state == expected)
    }

    @Test("a lead time override widens due-soon")
    func leadOverride() {
        #expect(flexible.status(at: at("2025-01-08T00:00:00Z"), lead: .init(3, .days)).state == .dueSoon)
        let longLead = task(
            .afterCompletion(min: .init(10, .days), max: .init(14, .days)), start: "2025-01-01T00:00:00Z",
            lead: .init(2, .days))
        #expect(longLead.status(at: at("2025-01-09T00:00:00Z")).state == .dueSoon)
    }

    @Test("gate: closed before windowStart − lead, open from then on, overdue included")
    func gateOpensWithLead() {
        #expect(flexible.locationDecision(at: at("2025-01-09T23:00:00Z"), lastLocationNotification: nil) == .suppress(.notDue))
        guard case .notify(let cycle) = flexible.locationDecision(at: at("2025-01-10T00:00:00Z"), lastLocationNotification: nil)
        else { Issue.record("gate should open at windowStart − lead"); return }
        #expect(cycle.due == at("2025-01-15T00:00:00Z"))
        if case .suppress = flexible.locationDecision(at: at("2025-02-01T00:00:00Z"), lastLocationNotification: nil) {
            Issue.record("an overdue task must still remind on arrival")
        }
    }

    @Test("gate: min == max with a 24 h lead means 'due within 24 hours'")
    func dueWithin24Hours() {
        // Every 7 days, due 2025-01-08 00:00Z: 2025-01-06 23:59 is 24 h 1 min before → quiet.
        let weekly = task(.afterCompletion(min: .init(7, .days), max: .init(7, .days)), start: "2025-01-01T00:00:00Z")
        #expect(weekly.locationDecision(at: at("2025-01-06T23:59:00Z"), lastLocationNotification: nil) == .suppress(.notDue))
        #expect(weekly.locationDecision(at: at("2025-01-07T00:00:00Z"), lastLocationNotification: nil) != .suppress(.notDue))
    }

    @Test("gate: the cooldown holds within a cycle and resets with a new one")
    func cooldown() {
        let sent = at("2025-01-12T08:00:00Z")
        #expect(flexible.locationDecision(at: at("2025-01-12T19:59:59Z"), lastLocationNotification: sent) == .suppress(.cooldown))
        #expect(flexible.locationDecision(at: at("2025-01-12T20:00:00Z"), lastLocationNotification: sent) != .suppress(.cooldown))
        #expect(
            flexible.locationDecision(
                at: at("2025-01-12T10:00:00Z"), lastLocationNotification: sent,
                cooldown: .init(1, .hours)) != .suppress(.cooldown))
        // Completed at 09:00 → a new cycle; the 08:00 reminder belonged to the old one, and the new
        // cycle is not due (window 2025-01-22) → not-due rather than cooldown.
        var done = flexible
        done.complete(at: at("2025-01-12T09:00:00Z"))
        #expect(done.locationDecision(at: at("2025-01-12T10:00:00Z"), lastLocationNotification: sent) == .suppress(.notDue))
        #expect(done.locationDecision(at: at("2025-01-21T00:00:00Z"), lastLocationNotification: sent) != .suppress(.cooldown))
    }

    @Test("gate: never open before the start, closed for a finished task")
    func gateBeforeStartAndFinished() {
        let hourly = task(.fixed(every: .init(1, .hours)), start: "2025-01-01T12:00:00Z")
        // windowStart − lead (= 2024-12-31 13:00Z) is before the start; the start still rules.
        #expect(hourly.locationDecision(at: at("2025-01-01T11:00:00Z"), lastLocationNotification: nil) == .suppress(.notDue))
        let once = task(
            .once(due: at("2025-01-05T00:00:00Z")), start: "2025-01-01T00:00:00Z", completions: ["2025-01-04T00:00:00Z"])
        #expect(once.locationDecision(at: at("2025-01-04T12:00:00Z"), lastLocationNotification: nil) == .suppress(.completed))
    }

    @Test("a fixed grid of 1.7·10⁹ occurrences is searched in a few steps, months and seconds alike")
    func occurrenceSearchIsArithmetic() {
        let everySecond = task(
            .fixed(every: .init(1, .seconds)), start: "1970-01-01T00:00:00Z", completions: ["2025-06-01T12:00:00Z"])
        let cycle = everySecond.status(at: at("2025-06-01T12:00:00.5Z")).cycle
        #expect(cycle?.due == at("2025-06-01T12:00:01Z"))
        let monthly = task(
            .fixed(every: .init(1, .months)), start: "1970-01-31T09:00:00Z", completions: ["2025-01-31T10:00:00Z"])
        #expect(monthly.status(at: at("2025-02-10T00:00:00Z")).cycle?.due == at("2025-02-28T09:00:00Z"))
    }

    @Test("progress runs 0 → 1 from anchor to due, clamped")
    func progress() {
        // Anchor 2025-01-01, due 2025-01-15: on 2025-01-08 half way.
        #expect(flexible.status(at: at("2025-01-08T00:00:00Z")).progress == 0.5)
        #expect(flexible.status(at: at("2024-12-01T00:00:00Z")).progress == 0)
        #expect(flexible.status(at: at("2025-02-01T00:00:00Z")).progress == 1)
        #expect(flexible.status(at: at("2025-01-01T00:00:00Z")).progress == 0)
    }

    @Test("the last completion is reported as of the moment asked")
    func lastCompleted() {
        var done = flexible
        done.complete(at: at("2025-01-13T00:00:00Z"))
        #expect(done.status(at: at("2025-01-12T00:00:00Z")).lastCompleted == nil)
        #expect(done.status(at: at("2025-01-14T00:00:00Z")).lastCompleted == at("2025-01-13T00:00:00Z"))
    }
}
