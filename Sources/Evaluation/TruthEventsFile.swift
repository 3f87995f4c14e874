import FeedParsing
import Foundation
import GeoCore

/// Hand-labelled true events (`--truth-events FILE`): JSON lines
/// `{"kind":"enter"|"exit","time":"…","region":"…","device":"…"}`, or a
/// visits CSV `device,region,enter,exit` (RFC 3339 times; an empty exit is
/// a visit still open at the end; a header line is skipped). `device` may
/// be empty or absent for a feed's single unnamed device.
public struct TruthEventsFile: Sendable {
    /// The events, in file order.
    public private(set) var events: [ScoredEvent] = []
    /// Lines that could not be read, as `line N: reason`, in order.
    public private(set) var problems: [String] = []
    /// Events that cannot all be true, as `line N: what`: an entry to a
    /// region the device had entered and not left (overlapping visits),
    /// or an exit from one it had left and not entered again. They are
    /// kept; a detector can find only one of each pair.
    public private(set) var conflicts: [String] = []

    /// Reads `text`: JSON lines when its first non-blank character is `{`,
    /// else a visits CSV.
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Reads a file's bytes: JSON lines (UTF-8) when the first non-blank
    /// character is `{`, else a visits CSV, read as CSV feeds and regions
    /// are (UTF-8 or UTF-16 with its byte-order mark, fields split by `,`
    /// `;` tab or `|`, quoted fields, `#` comments).
    public init(bytes: [UInt8]) {
        let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]
        let unmarked = bytes.starts(with: utf8BOM) ? bytes.dropFirst(3) : bytes[...]
        // The line of each event.
        var eventLines: [Int] = []
        func read(line: Int, _ body: () throws(LineError) -> [ScoredEvent]) {
            do { events += try body() } catch { problems.append("line \(line): \(error.reason)") }
            eventLines += repeatElement(line, count: events.count - eventLines.count)
        }
        if unmarked.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            let text = String(decoding: unmarked, as: UTF8.self)
            for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                read(line: offset + 1) { () throws(LineError) in [try Self.event(json: trimmed)] }
            }
        } else {
            for (index, row) in DelimitedRowReader.rows(in: bytes).enumerated()
            where index > 0 || !Self.isHeader(row.fields) {
                read(line: row.line) { () throws(LineError) in try Self.visit(row.fields) }
            }
        }
        conflicts = findConflicts(lines: eventLines)
    }

    /// ``conflicts``, `lines` giving the line of each event: each device's
    /// events at each region in time order (file order at one time),
    /// inside after an entry and outside after an exit. A device may begin
    /// inside (its first event an exit); the second exit of two
    /// overlapping visits is not told again.
    private func findConflicts(lines: [Int]) -> [String] {
        struct Key: Hashable {
            var device: String?
            var region: String
        }
        var byKey: [Key: [Int]] = [:]
        for index in events.indices {
            byKey[Key(device: events[index].device, region: events[index].region), default: []].append(index)
        }
        var found: [(line: Int, text: String)] = []
        for (key, indices) in byKey {
            let ordered = indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
            var inside: Bool?
            var lastLine = 0
            var unmatchedEntries = 0
            let who = "\(key.device.map { "device \($0)" } ?? "the device") "
            for index in ordered {
                let line = lines[index]
                switch (events[index].kind, inside) {
                case (.enter, true?):
                    found.append((line, who + "enters \"\(key.region)\" again, inside since line \(lastLine)"))
                    unmatchedEntries += 1
                case (.exit, false?) where unmatchedEntries > 0:
                    unmatchedEntries -= 1
                case (.exit, false?):
                    found.append((line, who + "leaves \"\(key.region)\" again, outside since line \(lastLine)"))
                default:
                    lastLine = line
                }
                inside = events[index].kind == .enter
            }
        }
        return found.sorted { ($0.line, $0.text) < ($1.line, $1.text) }.map { "line \($0.line): \($0.text)" }
    }

    private struct LineError: Error {
        let reason: String
    }

    private static func event(json line: String) throws(LineError) -> ScoredEvent {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw LineError(reason: "not a JSON object")
        }
        guard let kindText = object["kind"] as? String, let kind = ScoredEvent.Kind(rawValue: kindText) else {
            throw LineError(reason: "\"kind\" must be \"enter\" or \"exit\"")
        }
        guard let region = object["region"] as? String, !region.isEmpty else { throw LineError(reason: "no \"region\"") }
        let time = try Self.time(object["time"] as? String, field: "time")
        let device = (object["device"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return ScoredEvent(kind: kind, time: time, region: region, device: device)
    }

    private static func visit(_ fields: [String]) throws(LineError) -> [ScoredEvent] {
        guard fields.count == 4 else {
            throw LineError(reason: "a visit is device,region,enter,exit (\(fields.count) fields)")
        }
        guard !fields[1].isEmpty else { throw LineError(reason: "no region") }
        let device = fields[0].isEmpty ? nil : fields[0]
        let entry = try Self.time(fields[2], field: "enter")
        var events = [ScoredEvent(kind: .enter, time: entry, region: fields[1], device: device)]
        if !fields[3].isEmpty {
            let exit = try Self.time(fields[3], field: "exit")
            guard entry <= exit else { throw LineError(reason: "the exit is before the entry") }
            events.append(ScoredEvent(kind: .exit, time: exit, region: fields[1], device: device))
        }
        return events
    }

    private static func time(_ text: String?, field: String) throws(LineError) -> Timestamp {
        guard let text, let time = RFC3339.parse(text) else {
            if let text, let outside = RFC3339.outsideHeldSpan(text) {
                throw LineError(reason: "\"\(field)\" \(text) is \(outside)")
            }
            throw LineError(reason: "\"\(field)\" must be an RFC 3339 time like 2025-03-17T16:00:00Z")
        }
        return time
    }

    private static func isHeader(_ fields: [String]) -> Bool {
        let lower = fields.joined(separator: " ").lowercased()
        return lower.contains("region") && lower.contains("device")
    }
}
