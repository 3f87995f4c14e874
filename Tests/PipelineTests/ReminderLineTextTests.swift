import Foundation
import GeoCore
import TestSupport
import Testing

@testable import Pipeline

/// `replay --json` writes most reminder lines in one pass
/// (`ReminderLineText`): each must be the line that `JSONLine` builds field
/// by field, whatever the fields hold, and the time kept from one line to
/// the next must never stand for another.
@Suite("Reminder lines made in one pass")
struct ReminderLineTextTests {
    @Test("seeded: 20 000 reminders, runs at one instant, every field empty, escaped, non-ASCII, far or fractional")
    func sameAsFieldByField() {
        let seed = SeededRandom.testSeed(default: 31)
        print("ReminderLineTextTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let texts = [
            "task-1", "Errand 12", "", "say \"hi\"", "tab\there", "back\\slash", "Café — 藥局 🐈",
            "a name longer than sixteen bytes",
        ]
        let dates = [1_700_000_000, 1_700_000_000.125, 1_700_000_000.0004, -86_400.5, 9.1e9, 9.3e9, -9.3e9]
            .map(Date.init(timeIntervalSince1970:))
        let distances: [Double?] = [nil, 0, 12.345, 0.005, 1e17, -3.2, .nan, .infinity]
        func pick<Element>(_ choices: [Element]) -> Element { choices[Int(random.next() % UInt64(choices.count))] }
        var time = dates[0]
        let output = ByteWriter(keeping: 1 << 22)
        let sink = ReminderLinesSink(
            output: output, printing: .init(transitions: false, reminders: true, explain: false, json: true))
        var expected: [UInt8] = []
        for _ in 0..<20_000 {
            // Runs of reminders at one instant, as at the clock's start.
            if random.next() % 4 == 0 { time = random.next() % 3 == 0 ? pick(dates) : time.addingTimeInterval(0.5) }
            let due = random.next() % 3 == 0 ? pick(dates) : time.addingTimeInterval(-Double(random.next() % 1000))
            let notification = TaskNotification(
                kind: random.next() % 2 == 0 ? .due : .location, time: time, taskID: pick(texts), title: pick(texts),
                region: random.next() % 2 == 0 ? nil : pick(texts), device: random.next() % 2 == 0 ? nil : pick(texts),
                distance: pick(distances), due: due, windowStart: random.next() % 2 == 0 ? due : pick(dates))
            sink.receive(.reminder(.notify(notification)))
            expected += Array((ReminderLines.jsonText(notification) + "\n").utf8)
        }
        let written = output.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let wanted = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(written.count == wanted.count)
        let first = zip(written, wanted).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            first == nil,
            "line \((first?.offset ?? 0) + 1): \(first.map { String(decoding: $0.element.0, as: UTF8.self) } ?? "") instead of \(first.map { String(decoding: $0.element.1, as: UTF8.self) } ?? "")"
        )
    }
}
