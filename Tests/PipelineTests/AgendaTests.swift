import Foundation
import GeoCore
import TestSupport
import Testing

@testable import Pipeline

/// The scheduler's bucketed agenda against one heap of every appointment.
@Suite("Agenda")
struct AgendaTests {
    typealias Appointment = Agenda.Appointment

    @Test("seeded: appointments minutes to weeks ahead, ties, a clock that jumps or creeps: what one heap gives")
    func takesWhatOneHeapTakes() {
        let seed = SeededRandom.testSeed(default: 17)
        print("AgendaTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let origin = Date(timeIntervalSince1970: 1_700_000_000)
        var agenda = Agenda()
        var heap = MinHeap<Appointment>()
        var clock = origin
        var takes = 0
        for step in 0..<20_000 {
            // Some steps add a handful of appointments, from just after the
            // clock to weeks ahead; some on whole hours, so that times tie
            // and sit on a bucket's first instant.
            for _ in 0..<Int(random.uniform(0, 4)) {
                let ahead = random.uniform(0, 1) < 0.3 ? random.uniform(0, 600) : random.uniform(0, 40 * 86_400)
                var time = clock.addingTimeInterval(ahead)
                if random.uniform(0, 1) < 0.2 {
                    time = Date(timeIntervalSince1970: (time.timeIntervalSince1970 / 3600).rounded(.up) * 3600)
                }
                let appointment = Appointment(time: time, position: Int(random.uniform(0, 500)))
                agenda.insert(appointment)
                heap.insert(appointment)
            }
            clock = clock.addingTimeInterval(random.uniform(0, 1) < 0.05 ? random.uniform(0, 5 * 86_400) : random.uniform(0, 900))
            var expected: [Int] = []
            while let first = heap.min, first.time <= clock {
                expected.append(first.position)
                _ = heap.popMin()
            }
            if !expected.isEmpty {
                #expect(agenda.mayHaveAppointment(by: clock), "step \(step)")
            }
            var taken: [Int] = []
            agenda.takeAll(through: clock, into: &taken)
            #expect(taken == expected, "step \(step)")
            if let first = agenda.firstReached, let heapFirst = heap.min {
                #expect(first == heapFirst, "step \(step)")
            }
            takes += taken.count
        }
        #expect(takes > 10_000)
        var rest: [Int] = []
        agenda.takeAll(through: .distantFuture, into: &rest)
        #expect(rest.count == heap.count)
        #expect(!agenda.mayHaveAppointment(by: .distantFuture))
    }

    @Test("an appointment in the hour the clock is in, or before the first, is taken in order")
    func appointmentsInTheCurrentHour() {
        let hour = Date(timeIntervalSince1970: Double(1_700_000_000 / 3600 * 3600))
        var agenda = Agenda()
        agenda.insert(Appointment(time: hour.addingTimeInterval(1800), position: 2))
        var taken: [Int] = []
        agenda.takeAll(through: hour.addingTimeInterval(60), into: &taken)
        #expect(taken.isEmpty)
        #expect(agenda.firstReached?.position == 2)
        // The clock's hour is reached: a new appointment in it joins the heap.
        agenda.insert(Appointment(time: hour.addingTimeInterval(900), position: 5))
        agenda.insert(Appointment(time: hour.addingTimeInterval(900), position: 1))
        agenda.insert(Appointment(time: hour.addingTimeInterval(7200), position: 0))
        #expect(!agenda.mayHaveAppointment(by: hour.addingTimeInterval(899)))
        agenda.takeAll(through: hour.addingTimeInterval(3600), into: &taken)
        #expect(taken == [1, 5, 2])
        agenda.removeAll()
        #expect(!agenda.mayHaveAppointment(by: .distantFuture))
    }

    @Test("appointments added in batches, before and after the clock reaches their hour, come out as added one by one")
    func batches() {
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 23))
        let origin = Date(timeIntervalSince1970: 1_700_000_000)
        var (single, batched) = (Agenda(), Agenda())
        var clock = origin
        for round in 0..<200 {
            var batch = Agenda.Batch()
            for _ in 0..<Int(random.uniform(0, 40)) {
                let ahead = random.uniform(0, 1) < 0.3 ? random.uniform(0, 1_800) : random.uniform(0, 10 * 86_400)
                let appointment = Appointment(time: clock.addingTimeInterval(ahead), position: Int(random.uniform(0, 300)))
                single.insert(appointment)
                batch.insert(appointment)
            }
            batched.insert(batch)
            clock = clock.addingTimeInterval(random.uniform(0, 7_200))
            var (one, other) = ([Int](), [Int]())
            single.takeAll(through: clock, into: &one)
            batched.takeAll(through: clock, into: &other)
            #expect(one == other, "round \(round)")
            #expect(single.firstReached == batched.firstReached, "round \(round)")
        }
        var (one, other) = ([Int](), [Int]())
        single.takeAll(through: .distantFuture, into: &one)
        batched.takeAll(through: .distantFuture, into: &other)
        #expect(one == other && !one.isEmpty)
    }
}
