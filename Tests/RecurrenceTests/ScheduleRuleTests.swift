import Foundation
import Recurrence
import Testing

@Suite("Schedules: one rule a test")
struct ScheduleRuleTests {
    @Test("once: due at its deadline, finished when done")
    func once() {
        // Due 2025-02-01 12:00Z; the window is the due date itself.
        let t = task(.once(due: at("2025-02-01T12:00:00Z")), start: "2025-01-01T00:00:00Z")
        let cycle = t.cycle(at: at("2025-01-15T00:00:00Z"))
        #expect(cycle?.due == at("2025-02-01T12:00:00Z"))
        #expect(cycle?.windowStart == cycle?.due)
        var done = t
        done.complete(at: at("2025-01-20T00:00:00Z"))
        #expect(done.cycle(at: at("2025-01-19T23:59:59Z")) != nil)  // not yet done then
        #expect(done.cycle(at: at("2025-01-20T00:00:00Z")) == nil)
        #expect(done.status(at: at("2025-03-01T00:00:00Z")).state == .finished)
    }

    @Test("afterCompletion: first cycle anchored on the start")
    func afterCompletionFirstCycle() {
        // Start Mon 2025-01-06 09:00 Berlin; +10w = Mon 2025-03-17 09:00 (08:00Z),
        // +14w = Mon 2025-04-14 09:00 CEST (07:00Z: DST began 2025-03-30).
        let t = task(.afterCompletion(min: weeks(10), max: weeks(14)), start: "2025-01-06T09:00:00+01:00", zone: berlin)
        let cycle = t.cycle(at: at("2025-02-01T00:00:00Z"))
        #expect(cycle?.windowStart == at("2025-03-17T08:00:00Z"))
        #expect(cycle?.due == at("2025-04-14T07:00:00Z"))
        #expect(cycle?.anchor == at("2025-01-06T08:00:00Z"))
    }

    @Test("afterCompletion: the next cycle is anchored on the completion")
    func afterCompletionAnchorsOnCompletion() {
        // Completed 2025-03-20 17:45 CET (16:45Z): window 2025-05-29 17:45 CEST (15:45Z),
        // due 2025-06-26 17:45 CEST (15:45Z).
        let t = task(
            .afterCompletion(min: weeks(10), max: weeks(14)), start: "2025-01-06T09:00:00+01:00",
            zone: berlin, completions: ["2025-03-20T17:45:00+01:00"])
        let cycle = t.cycle(at: at("2025-04-01T00:00:00Z"))
        #expect(cycle?.number == 1)
        #expect(cycle?.began == at("2025-03-20T16:45:00Z"))
        #expect(cycle?.windowStart == at("2025-05-29T15:45:00Z"))
        #expect(cycle?.due == at("2025-06-26T15:45:00Z"))
    }

    @Test("afterCompletion with min == max is a fixed interval from each completion")
    func fixedIntervalAfterCompletion() {
        // Every 3 days after completion: done 2025-01-05 20:00Z → due 2025-01-08 20:00Z.
        let t = task(
            .afterCompletion(min: .init(3, .days), max: .init(3, .days)), start: "2025-01-01T08:00:00Z",
            completions: ["2025-01-05T20:00:00Z"])
        let cycle = t.cycle(at: at("2025-01-06T00:00:00Z"))
        #expect(cycle?.windowStart == at("2025-01-08T20:00:00Z"))
        #expect(cycle?.due == at("2025-01-08T20:00:00Z"))
    }

    @Test("fixed: occurrences are start + k·every, first at k = 1")
    func fixedFirstOccurrence() {
        // Start 2025-01-06 09:00Z, every 2w: due 2025-01-20 09:00Z.
        let t = task(.fixed(every: weeks(2)), start: "2025-01-06T09:00:00Z")
        #expect(t.cycle(at: at("2025-01-06T09:00:00Z"))?.due == at("2025-01-20T09:00:00Z"))
        // Never completed: the due date stays put and the task is overdue.
        #expect(t.cycle(at: at("2025-03-01T00:00:00Z"))?.due == at("2025-01-20T09:00:00Z"))
        #expect(t.status(at: at("2025-03-01T00:00:00Z")).state == .overdue)
    }

    @Test("fixed: an early completion moves to the following occurrence")
    func fixedEarlyCompletion() {
        // Due 2025-01-20; done early on 2025-01-18 → next due 2025-02-03 (not 2025-01-20).
        let t = task(.fixed(every: weeks(2)), start: "2025-01-06T09:00:00Z", completions: ["2025-01-18T10:00:00Z"])
        let cycle = t.cycle(at: at("2025-01-19T00:00:00Z"))
        #expect(cycle?.due == at("2025-02-03T09:00:00Z"))
        #expect(cycle?.anchor == at("2025-01-20T09:00:00Z"))  // the previous grid point
    }

    @Test("fixed: a late completion skips the missed occurrences")
    func fixedLateCompletion() {
        // Due 2025-01-20; done late on 2025-02-10 10:00 → 02-03 and 02-17 09:00? 02-17 is the first after.
        let t = task(.fixed(every: weeks(2)), start: "2025-01-06T09:00:00Z", completions: ["2025-02-10T10:00:00Z"])
        #expect(t.cycle(at: at("2025-02-11T00:00:00Z"))?.due == at("2025-02-17T09:00:00Z"))
    }

    @Test("fixed monthly from Jan 31 stays at month end: Feb 28, then Mar 31")
    func monthEnd() {
        // start + 1mo = 2025-02-28, start + 2mo = 2025-03-31 (computed from the start, not from Feb 28).
        let t = task(
            .fixed(every: .init(1, .months)), start: "2025-01-31T10:00:00Z",
            completions: ["2025-02-28T11:00:00Z"])
        #expect(t.cycle(at: at("2025-02-01T00:00:00Z"))?.due == at("2025-02-28T10:00:00Z"))
        #expect(t.cycle(at: at("2025-03-01T00:00:00Z"))?.due == at("2025-03-31T10:00:00Z"))
        let calendar = ZonedCalendar(timeZone: utc)
        #expect(calendar.adding(.init(1, .months), times: 1, to: at("2024-01-31T00:00:00Z")) == at("2024-02-29T00:00:00Z"))
        #expect(calendar.adding(.init(1, .years), to: at("2024-02-29T00:00:00Z")) == at("2025-02-28T00:00:00Z"))
    }

    @Test("weekdays: Mon, Wed, Fri at 18:00 local, strictly after the start")
    func weekdays() {
        // Start Mon 2025-01-06 18:00 Berlin (17:00Z) itself is not an occurrence:
        // first due Wed 2025-01-08 18:00 CET = 17:00Z.
        let t = task(
            .weekdays([.monday, .wednesday, .friday], at: TimeOfDay(hour: 18, minute: 0)),
            start: "2025-01-06T18:00:00+01:00", zone: berlin)
        #expect(t.cycle(at: at("2025-01-07T00:00:00Z"))?.due == at("2025-01-08T17:00:00Z"))
        // Done Thu 2025-01-09 → Fri 2025-01-10 18:00; done Sat → Mon 2025-01-13.
        var done = t
        done.complete(at: at("2025-01-09T12:00:00Z"))
        #expect(done.cycle(at: at("2025-01-09T13:00:00Z"))?.due == at("2025-01-10T17:00:00Z"))
        done.complete(at: at("2025-01-11T12:00:00Z"))
        #expect(done.cycle(at: at("2025-01-11T13:00:00Z"))?.due == at("2025-01-13T17:00:00Z"))
        // In summer 18:00 CEST is 16:00Z.
        let summer = task(.weekdays([.friday], at: TimeOfDay(hour: 18, minute: 0)), start: "2025-07-01T00:00:00Z", zone: berlin)
        #expect(summer.cycle(at: at("2025-07-01T00:00:00Z"))?.due == at("2025-07-04T16:00:00Z"))
    }

    @Test("days keep the wall-clock time across DST: 09:00 stays 09:00")
    func daysAcrossDST() {
        // Berlin switches to CEST on 2024-03-31. 2024-03-30 09:00 CET = 08:00Z; +1d = 2024-03-31 09:00 CEST = 07:00Z.
        let calendar = ZonedCalendar(timeZone: berlin)
        #expect(calendar.adding(.init(1, .days), to: at("2024-03-30T08:00:00Z")) == at("2024-03-31T07:00:00Z"))
        #expect(calendar.adding(.init(1, .weeks), to: at("2024-10-21T07:00:00Z")) == at("2024-10-28T08:00:00Z"))
    }

    @Test("a local time that does not exist moves forward")
    func skippedLocalTime() {
        // 2024-03-30 02:30 CET (01:30Z) + 1d: 2024-03-31 02:30 does not exist in Berlin (02:00 → 03:00);
        // it moves forward by the gap to 03:30 CEST = 01:30Z.
        let calendar = ZonedCalendar(timeZone: berlin)
        #expect(calendar.adding(.init(1, .days), to: at("2024-03-30T01:30:00Z")) == at("2024-03-31T01:30:00Z"))
    }

    @Test("an ambiguous local time takes the first")
    func repeatedLocalTime() {
        // 2024-10-26 02:30 CEST (00:30Z) + 1d: 2024-10-27 02:30 happens at 00:30Z (CEST) and 01:30Z (CET).
        let calendar = ZonedCalendar(timeZone: berlin)
        #expect(calendar.adding(.init(1, .days), to: at("2024-10-26T00:30:00Z")) == at("2024-10-27T00:30:00Z"))
    }

    @Test("minutes and hours are exact durations")
    func exactUnits() {
        // 24h after 2024-03-30 09:00 CET (08:00Z) is 08:00Z next day = 10:00 CEST, unlike 1d.
        let calendar = ZonedCalendar(timeZone: berlin)
        #expect(calendar.adding(.init(24, .hours), to: at("2024-03-30T08:00:00Z")) == at("2024-03-31T08:00:00Z"))
        #expect(calendar.adding(.init(90, .minutes), to: at("2024-03-31T00:30:00Z")) == at("2024-03-31T02:00:00Z"))
    }

    @Test("no occurrence before start; the start is an anchor, not an occurrence")
    func start() {
        let t = task(.fixed(every: .init(1, .days)), start: "2025-05-10T06:00:00Z")
        #expect(t.status(at: at("2025-05-01T00:00:00Z")).state == .waiting)
        #expect(t.cycle(at: at("2025-05-01T00:00:00Z"))?.due == at("2025-05-11T06:00:00Z"))
        // A completion before the start does not count.
        let early = task(.fixed(every: .init(1, .days)), start: "2025-05-10T06:00:00Z", completions: ["2025-05-09T00:00:00Z"])
        #expect(early.cycle(at: at("2025-05-10T07:00:00Z"))?.number == 0)
    }

    @Test("after the end the task is finished")
    func end() {
        // Weekly from 2025-01-01, end 2025-01-20: due 01-08, 01-15; the next (01-22) is past the end.
        let t = task(
            .fixed(every: weeks(1)), start: "2025-01-01T00:00:00Z", end: "2025-01-20T00:00:00Z",
            completions: ["2025-01-08T01:00:00Z", "2025-01-15T01:00:00Z"])
        #expect(t.cycle(at: at("2025-01-10T00:00:00Z"))?.due == at("2025-01-15T00:00:00Z"))
        #expect(t.cycle(at: at("2025-01-16T00:00:00Z")) == nil)
        let open = task(.fixed(every: weeks(1)), start: "2025-01-01T00:00:00Z", end: "2025-01-20T00:00:00Z")
        #expect(open.status(at: at("2025-01-20T00:00:01Z")).state == .finished)
    }
}
