import Foundation
import GeoCore
import Geofencing
import Recurrence

/// The lines of a replay: DESIGN.md's JSON objects, or table rows.
enum ReminderLines {
    /// The table header (time, kind, task, place, why).
    static let header = "time                  kind        task                  place                 why\n"

    /// The named place nearest a line's device (`--places`).
    struct Near {
        var name: String
        var metres: Double
        /// The table's words: `near Pharmacy (42 m)`.
        var text: String { "near \(name.terminalSafe) (\(Int(metres.rounded())) m)" }

        /// Adds `"near"` and `"near_m"` (whole metres) to a JSON line.
        func add(to line: inout JSONLine) {
            line.add("near", name)
            line.add("near_m", Int(metres.rounded()))
        }
    }

    /// A transition: `{"kind":"enter","time":…,"region":…,"device":…,"distance_m":…}`,
    /// with `"tasks":[…]` when its region concerns tasks (the table's task
    /// column lists them). The table says what the distance is measured
    /// from: a circle's centre, or for an area (`inArea`) its edge, from
    /// outside (0 is inside).
    static func append(
        _ transition: Transition, tasks: [String] = [], inArea: Bool = false, json: Bool, to output: ByteWriter
    ) {
        if json {
            output.write(jsonText(transition, tasks: tasks))
            output.write("\n")
        } else {
            let device = transition.device.map { ", device " + $0.terminalSafe } ?? ""
            let distance =
                !inArea
                ? "\(rounded(transition.distance)) m from the centre"
                : transition.distance > 0 ? "\(rounded(transition.distance)) m outside the edge" : "inside"
            writeRow(
                to: output, time: { RFC3339.append(transition.time, to: &$0) }, transition.kind.rawValue,
                tasks.isEmpty ? "-" : tasks.joined(separator: ","), transition.region, distance + device)
        }
    }

    /// A reminder: `{"time","kind","task","title","region","device","distance_m","due","window_start"}`.
    static func append(_ notification: TaskNotification, json: Bool, near: Near? = nil, to output: ByteWriter) {
        if json {
            JSONLine.writeLine(to: output) { add(notification, near: near, to: &$0) }
        } else {
            let why: String
            switch notification.kind {
            case .due: why = "due now"
            case .location where notification.time > notification.due:
                why = "overdue since \(RFC3339Text.format(notification.due))"
            case .location where notification.time >= notification.windowStart:
                why = "in its window, due \(RFC3339Text.format(notification.due))"
            case .location: why = "window opens within the lead time, due \(RFC3339Text.format(notification.due))"
            }
            writeRow(
                to: output, time: { RFC3339Text.append(notification.time, to: &$0) }, notification.kind.rawValue,
                notification.taskID, notification.region ?? "-", near.map { why + "; " + $0.text } ?? why)
        }
    }

    /// The JSON object of a transition, on one line without its newline.
    static func jsonText(_ transition: Transition, tasks: [String] = []) -> String {
        var line =
            "{\"kind\":\"\(transition.kind.rawValue)\",\"time\":\"\(RFC3339.format(transition.time))\",\"region\":"
            + JSONLine.quoted(transition.region)
        if let device = transition.device { line += ",\"device\":" + JSONLine.quoted(device) }
        if !tasks.isEmpty { line += ",\"tasks\":[" + tasks.map(JSONLine.quoted).joined(separator: ",") + "]" }
        return line + ",\"distance_m\":\(rounded(transition.distance))}"
    }

    /// The JSON object of a reminder, on one line without its newline.
    static func jsonText(_ notification: TaskNotification, near: Near? = nil) -> String {
        var line = JSONLine()
        add(notification, near: near, to: &line)
        return line.string
    }

    /// The keys of reminder and suppression lines, quoted once.
    private enum Keys {
        static let time = JSONLine.Key("time")
        static let kind = JSONLine.Key("kind")
        static let task = JSONLine.Key("task")
        static let title = JSONLine.Key("title")
        static let region = JSONLine.Key("region")
        static let device = JSONLine.Key("device")
        static let distance = JSONLine.Key("distance_m")
        static let due = JSONLine.Key("due")
        static let windowStart = JSONLine.Key("window_start")
        static let reason = JSONLine.Key("reason")
    }

    /// Adds the fields of a reminder to `line`.
    private static func add(_ notification: TaskNotification, near: Near?, to line: inout JSONLine) {
        line.add(Keys.time, date: notification.time)
        line.add(Keys.kind, notification.kind.rawValue)
        line.add(Keys.task, notification.taskID)
        line.add(Keys.title, notification.title)
        if let region = notification.region { line.add(Keys.region, region) }
        if let device = notification.device { line.add(Keys.device, device) }
        if let distance = notification.distance { line.add(Keys.distance, rounded(distance)) }
        line.add(Keys.due, date: notification.due)
        line.add(Keys.windowStart, date: notification.windowStart)
        near?.add(to: &line)
    }

    /// A suppression: `{"kind":"suppressed","reason":…,"time",…}`.
    static func append(_ suppression: Suppression, json: Bool, near: Near? = nil, to output: ByteWriter) {
        if json {
            JSONLine.writeLine(to: output) { add(suppression, near: near, to: &$0) }
        } else {
            let why = suppression.cause.reason
            writeRow(
                to: output, time: { RFC3339Text.append(suppression.time, to: &$0) }, "suppressed", suppression.taskID,
                suppression.region ?? "-", near.map { why + "; " + $0.text } ?? why)
        }
    }

    /// The JSON object of a suppression, on one line without its newline.
    static func jsonText(_ suppression: Suppression, near: Near? = nil) -> String {
        var line = JSONLine()
        add(suppression, near: near, to: &line)
        return line.string
    }

    /// Adds the fields of a suppression to `line`.
    private static func add(_ suppression: Suppression, near: Near?, to line: inout JSONLine) {
        line.add(Keys.time, date: suppression.time)
        line.add(Keys.kind, "suppressed")
        line.add(Keys.reason, suppression.cause.reason)
        line.add(Keys.task, suppression.taskID)
        if let region = suppression.region { line.add(Keys.region, region) }
        if let device = suppression.device { line.add(Keys.device, device) }
        if let distance = suppression.distance { line.add(Keys.distance, rounded(distance)) }
        near?.add(to: &line)
    }

    /// Writes a table row: the time that `time` appends (ASCII, padded to
    /// 21 characters), the kind, the task and the place in columns, and
    /// why, written straight into the output's bytes.
    private static func writeRow(
        to output: ByteWriter, time: (inout [UInt8]) -> Void, _ kind: String, _ task: String, _ place: String,
        _ why: String
    ) {
        let start = output.bytes.count
        time(&output.bytes)
        // A time with milliseconds is 24 characters: it pushes the row right
        // rather than running into the kind.
        output.bytes.appendSpaces(21 - (output.bytes.count - start))
        output.bytes.append(UInt8(ascii: " "))
        output.bytes.appendColumn(kind, paddedTo: 12)
        output.bytes.appendColumn(task, fittedTo: 21)
        output.bytes.append(UInt8(ascii: " "))
        output.bytes.appendColumn(place, fittedTo: 21)
        output.bytes.append(UInt8(ascii: " "))
        output.bytes.append(contentsOf: why.utf8)
        output.bytes.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }

    /// Metres to the centimetre, as lines give them.
    static func rounded(_ metres: Double) -> Double { (metres * 100).rounded() / 100 }
}
