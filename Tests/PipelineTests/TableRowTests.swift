import FeedParsing
import Foundation
import GeoCore
import Geofencing
import Recurrence
import TestSupport
import Testing

@testable import Pipeline

/// The readable tables (`decode` and `replay` without `--json`) are
/// written straight into bytes (`ColumnBytes`): each row must be the one
/// that the plain reference below builds from strings, column by column,
/// whatever the text holds (escapes, marks that join a character, emoji,
/// text longer than its column) and whatever the numbers.
@Suite("Table rows written as bytes")
struct TableRowTests {
    /// Texts that a byte count would measure wrongly, or that a terminal
    /// must not get as they are.
    static let texts = [
        "", "a", "task-1", "exactly twenty-one ch", "a name much longer than twenty-one characters", "~!@#$%^&*()_+{}|:<>?",
        "tab\there", "esc\u{1b}[2J", "del\u{7f}", "c1\u{85}", "\r\n", "line\r\nbreak", "Café", "cafe\u{301} au lait",
        "藥局", "🐈‍⬛ a black cat, far too long for the column", "Zürich Hauptbahnhof, Gleis 3",
    ]

    @Test("a column is the text that String's padded, fitted and terminalSafe make")
    func columnsAsStrings() {
        for text in Self.texts {
            for width in 1...25 {
                var padded: [UInt8] = []
                padded.appendColumn(text, paddedTo: width)
                #expect(
                    String(decoding: padded, as: UTF8.self) == text.padded(width), "padded \(width): \(text.debugDescription)")
                var fitted: [UInt8] = []
                fitted.appendColumn(text, fittedTo: width)
                #expect(
                    String(decoding: fitted, as: UTF8.self) == text.fitted(width), "fitted \(width): \(text.debugDescription)")
                var right: [UInt8] = []
                right.appendColumn(text, rightAlignedTo: width)
                #expect(
                    String(decoding: right, as: UTF8.self) == Reference.right(text, width),
                    "right \(width): \(text.debugDescription)")
            }
            var safe: [UInt8] = []
            safe.appendTerminalSafe(text)
            #expect(String(decoding: safe, as: UTF8.self) == text.terminalSafe, "terminalSafe: \(text.debugDescription)")
        }
    }

    @Test("seeded: fixed-point numbers as the reference writes them, signs, halves, limits and non-finite values included")
    func fixedPoint() {
        let seed = SeededRandom.testSeed(default: 47)
        print("TableRowTests.fixedPoint seed \(seed)")
        var random = SeededRandom(seed: seed)
        var values: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 0.05, -0.05, 0.25, -0.004, 1e15, 999_999.999_999_999_5]
        for _ in 0..<20_000 {
            // Magnitudes from 10^-12 to 10^17, some cut to a few decimals
            // so that halves and exact values come up.
            var value = pow(10, random.uniform(-12, 17)) * (random.next() % 2 == 0 ? 1 : -1)
            if random.next() % 3 == 0 { value = (value * 100).rounded() / 100 + (random.next() % 2 == 0 ? 0.005 : 0) }
            values.append(value)
        }
        var differences = 0
        for (index, value) in values.enumerated() {
            let decimals = [0, 1, 2, 9, index % 10][index % 5]
            let width = index % 17
            var bytes: [UInt8] = []
            bytes.appendFixedPoint(value, decimals: decimals, width: width)
            let wanted = Reference.number(value, decimals, width: width)
            if String(decoding: bytes, as: UTF8.self) != wanted {
                differences += 1
                if differences <= 5 {
                    Issue.record(
                        "\(value) to \(decimals) decimals in \(width): \(String(decoding: bytes, as: UTF8.self)) instead of \(wanted)"
                    )
                }
            }
        }
        #expect(differences == 0)
    }

    @Test("seeded: decode's rows and headers as the reference builds them")
    func fixRows() {
        let seed = SeededRandom.testSeed(default: 53)
        print("TableRowTests.fixRows seed \(seed)")
        var random = SeededRandom(seed: seed)
        func maybe(_ low: Double, _ high: Double) -> Double? {
            random.next() % 4 == 0 ? nil : random.uniform(low, high)
        }
        #expect(FixTable.header == Reference.header)
        #expect(FixTable.waypointHeader == Reference.waypointHeader)
        for index in 0..<5_000 {
            let time = Timestamp(
                nanoseconds: Int64(bitPattern: random.next() % 4_000_000_000_000_000_000) - 1_000_000_000_000_000_000,
                fractionDigits: UInt8(random.next() % 10))
            let coordinate = Coordinate(latitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180))
            let device = random.next() % 3 == 0 ? nil : Self.texts[index % Self.texts.count]
            let fix = Fix(
                time: random.next() % 5 == 0 ? nil : time, coordinate: coordinate, elevation: maybe(-500, 9000),
                speed: maybe(0, 400), course: maybe(0, 360), hdop: maybe(0, 50), accuracy: maybe(0, 1e6), device: device)
            var row: [UInt8] = []
            FixTable.append(fix, to: &row)
            #expect(String(decoding: row, as: UTF8.self) == Reference.row(fix))

            let name = random.next() % 4 == 0 ? nil : Self.texts[(index * 7) % Self.texts.count]
            let waypoint = Waypoint(
                name: name, coordinate: coordinate, elevation: maybe(-500, 9000), time: random.next() % 2 == 0 ? nil : time)
            var waypointRow: [UInt8] = []
            FixTable.append(waypoint, to: &waypointRow)
            #expect(String(decoding: waypointRow, as: UTF8.self) == Reference.row(waypoint))
        }
    }

    @Test("seeded: replay's rows of reminders, suppressions and transitions as the reference builds them")
    func reminderRows() {
        let seed = SeededRandom.testSeed(default: 59)
        print("TableRowTests.reminderRows seed \(seed)")
        var random = SeededRandom(seed: seed)
        func pick<Element>(_ choices: [Element]) -> Element { choices[Int(random.next() % UInt64(choices.count))] }
        let dates = [1_700_000_000, 1_700_000_000.125, -86_400.5, 9.1e9, 9.3e9, -9.3e9].map(Date.init(timeIntervalSince1970:))
        let nears: [ReminderLines.Near?] = [nil, .init(name: "Pharmacy", metres: 42.4), .init(name: "esc\u{1b}]0;", metres: 7)]
        let output = ByteWriter(keeping: 1 << 20)
        var expected = ""
        for _ in 0..<3_000 {
            let time = pick(dates).addingTimeInterval(Double(random.next() % 100))
            let due = pick(dates)
            let near = pick(nears)
            switch random.next() % 3 {
            case 0:
                let notification = TaskNotification(
                    kind: random.next() % 2 == 0 ? .due : .location, time: time, taskID: pick(Self.texts),
                    title: pick(Self.texts), region: random.next() % 2 == 0 ? nil : pick(Self.texts),
                    device: pick(Self.texts), distance: 12.5, due: due, windowStart: pick(dates))
                ReminderLines.append(notification, json: false, near: near, to: output)
                expected += Reference.row(notification, near: near)
            case 1:
                let suppression = Suppression(
                    time: time, taskID: pick(Self.texts), cause: pick([.gate(.notDue), .gate(.cooldown), .accuracy]),
                    region: random.next() % 2 == 0 ? nil : pick(Self.texts), device: pick(Self.texts), distance: 3)
                ReminderLines.append(suppression, json: false, near: near, to: output)
                expected += Reference.row(suppression, near: near)
            default:
                let transition = Transition(
                    kind: pick(Transition.Kind.allCases),
                    time: Timestamp(
                        nanoseconds: Int64(random.next() % 2_000_000_000_000_000_000), fractionDigits: UInt8(random.next() % 10)),
                    regionKey: 0, region: pick(Self.texts), device: random.next() % 2 == 0 ? nil : pick(Self.texts),
                    distance: random.next() % 4 == 0 ? 0 : random.uniform(0, 5000))
                let tasks =
                    Array(repeating: "task", count: Int(random.next() % 3)) + (random.next() % 2 == 0 ? [pick(Self.texts)] : [])
                let inArea = random.next() % 2 == 0
                ReminderLines.append(transition, tasks: tasks, inArea: inArea, json: false, to: output)
                expected += Reference.row(transition, tasks: tasks, inArea: inArea)
            }
        }
        let written = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(written.count == wanted.count)
        let first = zip(written, wanted).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil, "line \((first?.offset ?? 0) + 1): \(first?.element.0 ?? "") instead of \(first?.element.1 ?? "")")
    }
}

/// The tables as they were built before they were written as bytes: a
/// string per column, measured in characters.
private enum Reference {
    static let header =
        pad("time", 30) + "  " + right("latitude", 13) + "  " + right("longitude", 14) + "  " + right("ele", 7) + "  "
        + right("speed", 7) + "  " + right("course", 6) + "  " + right("hdop", 5) + "  " + right("acc", 5) + "  device\n"

    static let waypointHeader =
        pad("name", 20) + "  " + right("latitude", 13) + "  " + right("longitude", 14) + "  " + right("ele", 7) + "  time\n"

    static func row(_ fix: Fix) -> String {
        let time = fix.time.map { RFC3339.format($0) } ?? "-"
        return pad(time, 30) + "  " + number(fix.coordinate.latitude, 9, width: 13) + "  "
            + number(fix.coordinate.longitude, 9, width: 14) + "  " + optional(fix.elevation, 1, width: 7) + "  "
            + optional(fix.speed, 2, width: 7) + "  " + optional(fix.course, 1, width: 6) + "  "
            + optional(fix.hdop, 1, width: 5) + "  " + optional(fix.accuracy, 1, width: 5) + "  "
            + (fix.device ?? "").terminalSafe + "\n"
    }

    static func row(_ waypoint: Waypoint) -> String {
        pad((waypoint.name ?? "-").terminalSafe, 20) + "  " + number(waypoint.coordinate.latitude, 9, width: 13) + "  "
            + number(waypoint.coordinate.longitude, 9, width: 14) + "  " + optional(waypoint.elevation, 1, width: 7) + "  "
            + (waypoint.time.map { RFC3339.format($0) } ?? "-") + "\n"
    }

    static func row(_ notification: TaskNotification, near: ReminderLines.Near?) -> String {
        let due = RFC3339Text.format(notification.due)
        let why: String
        switch notification.kind {
        case .due: why = "due now"
        case .location where notification.time > notification.due: why = "overdue since \(due)"
        case .location where notification.time >= notification.windowStart: why = "in its window, due \(due)"
        case .location: why = "window opens within the lead time, due \(due)"
        }
        return row(
            RFC3339Text.format(notification.time), notification.kind.rawValue, notification.taskID,
            notification.region ?? "-", near.map { why + "; " + $0.text } ?? why)
    }

    static func row(_ suppression: Suppression, near: ReminderLines.Near?) -> String {
        let why = suppression.cause.reason
        return row(
            RFC3339Text.format(suppression.time), "suppressed", suppression.taskID, suppression.region ?? "-",
            near.map { why + "; " + $0.text } ?? why)
    }

    static func row(_ transition: Transition, tasks: [String], inArea: Bool) -> String {
        let metres = ReminderLines.rounded(transition.distance)
        let distance: String
        if !inArea {
            distance = "\(metres) m from the centre"
        } else if transition.distance == 0 {
            distance = "inside"
        } else {
            distance = "\(metres) m outside the edge"
        }
        return row(
            RFC3339.format(transition.time), transition.kind.rawValue, tasks.isEmpty ? "-" : tasks.joined(separator: ","),
            transition.region, distance + (transition.device.map { ", device \($0.terminalSafe)" } ?? ""))
    }

    static func row(_ time: String, _ kind: String, _ task: String, _ place: String, _ why: String) -> String {
        time.padded(21) + " " + kind.padded(12) + task.fitted(21) + " " + place.fitted(21) + " " + why + "\n"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    static func optional(_ value: Double?, _ decimals: Int, width: Int) -> String {
        guard let value else { return String(repeating: " ", count: width - 1) + "-" }
        return number(value, decimals, width: width)
    }

    static func number(_ value: Double, _ decimals: Int, width: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return right(value.isFinite ? String(value) : "-", width) }
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
