import Foundation
import GeoCore
import Recurrence

/// A reminder's JSON line, as ``ReminderLines`` writes it, made in one pass:
/// the runs of text between the values are written whole, and the time's
/// text is kept for the next line, since reminders come in runs at one
/// instant (the tasks due when the clock starts, the arrivals of a fix).
/// Built field by field (``JSONLine``), a line took some 3 300
/// instructions, and a replay of 100 000 tasks prints 129 000 of them.
///
/// It writes the lines whose strings need no escape and whose dates are in
/// ``JSONLine``'s range for them; ``JSONLine`` writes the others.
///
/// A class, for the room it writes a line in: kept from line to line, and
/// no closure around the writing (a closure given to
/// `withUnsafeTemporaryAllocation` took a copy of the notification, four
/// strings retained and released a line).
final class ReminderLineText {
    // Unchecked: one thread uses a writer at a time (a sink's, or a
    // piece's of a batch), and the run-time check of each access cost
    // some 160 instructions a line.

    /// The last line's time and its text.
    @exclusivity(unchecked) private var time = DateText()
    /// Where a line is made, and its size.
    @exclusivity(unchecked) private var room: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var roomSize: Int

    /// Room for the fixed text of a line, its three dates and its number.
    private static let fixedRoom = 384

    init() {
        roomSize = 1024
        room = .allocate(byteCount: roomSize, alignment: 16)
    }

    deinit { room.deallocate() }

    /// Appends the line of `notification` to `output`; `false`, with
    /// nothing written, for a line it leaves to ``JSONLine``.
    func append(_ notification: TaskNotification, to output: ByteWriter) -> Bool {
        guard DateText.covers(notification.time), DateText.covers(notification.due),
            DateText.covers(notification.windowStart),
            let task = Self.plainLength(notification.taskID), let title = Self.plainLength(notification.title),
            let region = notification.region.map(Self.plainLength) ?? 0,
            let device = notification.device.map(Self.plainLength) ?? 0
        else { return false }
        let needed = Self.fixedRoom + task + title + region + device
        if needed > roomSize {
            room.deallocate()
            roomSize = max(needed, 2 * roomSize)
            room = .allocate(byteCount: roomSize, alignment: 16)
        }
        var text = TextCursor(start: room)
        text.put("{\"time\":\"")
        time.update(to: notification.time)
        time.withText { text.put($0) }
        text.put("\",\"kind\":\"")
        text.put(notification.kind.rawValue)
        text.put("\",\"task\":\"")
        text.put(notification.taskID)
        text.put("\",\"title\":\"")
        text.put(notification.title)
        if let region = notification.region {
            text.put("\",\"region\":\"")
            text.put(region)
        }
        if let device = notification.device {
            text.put("\",\"device\":\"")
            text.put(device)
        }
        if let distance = notification.distance {
            text.put("\",\"distance_m\":")
            text.put(JSONLine.number(ReminderLines.rounded(distance)))
            text.put(",\"due\":\"")
        } else {
            text.put("\",\"due\":\"")
        }
        let due = text.position
        text.putDate(notification.due)
        let dueLength = text.position - due
        text.put("\",\"window_start\":\"")
        if notification.windowStart == notification.due {
            text.put(UnsafeRawBufferPointer(start: due, count: dueLength))
        } else {
            text.putDate(notification.windowStart)
        }
        text.put("\"}\n")
        output.bytes.append(contentsOf: UnsafeRawBufferPointer(start: room, count: text.count))
        return true
    }

    /// How many bytes `string` takes in a line, when it goes in as it is,
    /// without escapes; `nil` otherwise.
    private static func plainLength(_ string: String) -> Int? {
        string.utf8.withContiguousStorageIfAvailable { utf8 in
            ByteWords.needsJSONEscape(UnsafeRawBufferPointer(utf8)) ? nil : utf8.count
        } ?? nil
    }
}

/// Where a line's next byte goes, in room made for the whole line.
private struct TextCursor {
    let start: UnsafeMutableRawPointer
    private(set) var count = 0

    init(start: UnsafeMutableRawPointer) { self.start = start }

    /// Where the next byte goes.
    var position: UnsafeMutableRawPointer { start + count }

    mutating func put(_ literal: StaticString) {
        position.copyMemory(from: literal.utf8Start, byteCount: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
    }

    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        position.copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func put(_ string: String) {
        _ = string.utf8.withContiguousStorageIfAvailable { put(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `date` as UTC RFC 3339 text.
    mutating func putDate(_ date: Date) {
        count += RFC3339.write(
            RFC3339Text.timestamp(date), to: UnsafeMutableRawBufferPointer(start: position, count: RFC3339.maximumLength))
    }
}
