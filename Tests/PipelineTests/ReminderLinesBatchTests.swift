import Foundation
import GeoCore
import Geofencing
import Recurrence
import TestSupport
import Testing

@testable import Pipeline

/// A large batch of events written in pieces on several threads
/// (`ReminderLinesSink.receive(contentsOf:)`) must give the bytes that the
/// events give one by one on one thread.
@Suite("Reminder lines of a large batch")
struct ReminderLinesBatchTests {
    /// Reminders, suppressions, transitions and fixes in a seeded mix,
    /// many at one instant as at the clock's start.
    static func events(count: Int, seed: UInt64) -> [ReminderPipeline.Event] {
        var random = SeededRandom(seed: seed)
        let titles = ["Errand", "say \"hi\"", "Café — 藥局 🐈", "tab\there", ""]
        var events: [ReminderPipeline.Event] = []
        var clock = 1_700_000_000.0
        for index in 0..<count {
            if random.next() % 8 == 0 { clock += Double(random.next() % 5_000) / 4 }
            let time = Date(timeIntervalSince1970: clock)
            let due = time.addingTimeInterval(-Double(random.next() % 100_000))
            let task = "task-\(random.next() % 500)"
            let device = random.next() % 3 == 0 ? nil : "device \(random.next() % 7)"
            switch random.next() % 6 {
            case 0, 1:
                events.append(
                    .reminder(
                        .notify(
                            TaskNotification(
                                kind: .due, time: time, taskID: task, title: titles[index % titles.count], due: due,
                                windowStart: due))))
            case 2:
                events.append(
                    .reminder(
                        .notify(
                            TaskNotification(
                                kind: .location, time: time, taskID: task, title: titles[(index + 1) % titles.count],
                                region: "Pharmacy \(index % 9)", device: device, distance: Double(random.next() % 40_000) / 100,
                                due: due, windowStart: due.addingTimeInterval(-86_400)))))
            case 3:
                events.append(
                    .reminder(
                        .suppress(
                            Suppression(
                                time: time, taskID: task, cause: .gate(.cooldown), region: "Shop", device: device,
                                distance: 12.5))))
            case 4:
                events.append(
                    .transition(
                        Transition(
                            kind: .enter, time: Timestamp(secondsSince1970: clock), regionKey: 0, region: "Shop",
                            device: device, distance: Double(random.next() % 10_000) / 100)))
            default:
                let fix = Fix(time: Timestamp(secondsSince1970: clock), coordinate: Coordinate(latitude: 52.5, longitude: 13.4))
                events.append(.fix(TimedFix(fix)!))
            }
        }
        return events
    }

    /// What `events` print, by a sink with `threads` that takes them as
    /// one batch (`together`) or one by one.
    static func text(
        of events: [ReminderPipeline.Event], threads: Int, together: Bool, printing: ReminderLinesSink.Printing
    )
        -> [UInt8]
    {
        var regionTasks = RegionTasks()
        regionTasks.append("task-1", key: 0)
        let output = ByteWriter(keeping: 1 << 20)
        let sink = ReminderLinesSink(output: output, printing: printing, regionTasks: regionTasks, threads: threads)
        if together {
            sink.receive(contentsOf: events)
        } else {
            for event in events { sink.receive(event) }
        }
        sink.finish()
        return output.bytes
    }

    /// The first line where `text` and `expected` differ, with its number;
    /// `nil` when they are the same (a failure names one line, not
    /// megabytes of bytes).
    static func firstDifference(_ text: [UInt8], _ expected: [UInt8]) -> String? {
        guard text != expected else { return nil }
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (number, (line, wanted)) in zip(lines, expectedLines).enumerated() where line != wanted {
            return
                "line \(number + 1): \(String(decoding: line, as: UTF8.self)) instead of \(String(decoding: wanted, as: UTF8.self))"
        }
        return "\(lines.count) lines instead of \(expectedLines.count)"
    }

    @Test("the same bytes on 1, 2 and 5 threads, every kind of line printed")
    func sameBytes() {
        let events = Self.events(count: 30_001, seed: SeededRandom.testSeed(default: 17))
        let printing = ReminderLinesSink.Printing(transitions: true, reminders: true, explain: true, json: true)
        let alone = Self.text(of: events, threads: 1, together: false, printing: printing)
        #expect(alone.count > 3_000_000)
        for threads in [1, 2, 5] {
            let together = Self.text(of: events, threads: threads, together: true, printing: printing)
            #expect(Self.firstDifference(together, alone) == nil, "\(threads) threads")
        }
    }

    @Test("the same rows as a table, which is written on one thread")
    func sameTable() {
        let events = Self.events(count: 9_000, seed: SeededRandom.testSeed(default: 18))
        let printing = ReminderLinesSink.Printing(transitions: false, reminders: true, explain: false, json: false)
        let together = Self.text(of: events, threads: 3, together: true, printing: printing)
        #expect(Self.firstDifference(together, Self.text(of: events, threads: 1, together: false, printing: printing)) == nil)
    }
}
