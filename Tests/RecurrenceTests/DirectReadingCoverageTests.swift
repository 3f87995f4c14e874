import Foundation
import Testing

@testable import Recurrence

/// What the direct reader takes itself, rather than leaving to the tree
/// reader: a differential test cannot tell (both give the same tasks), but
/// a task left to the tree costs several times as much to read.
@Suite struct DirectReadingCoverageTests {
    /// Whether the direct reader reads `object` whole, by itself.
    func readsDirectly(_ object: String) -> Bool {
        Array(object.utf8).withUnsafeBufferPointer { bytes in
            var cursor = DirectJSONCursor(bytes, at: 0)
            var zones = ZoneNames()
            let slot = UnsafeMutablePointer<RecurringTask>.allocate(capacity: 1)
            defer { slot.deallocate() }
            guard DirectTaskReader.read(from: &cursor, zones: &zones, into: slot) else { return false }
            slot.deinitialize(count: 1)
            return cursor.position == bytes.count
        }
    }

    @Test(
        "every field of a task, places included, is read straight from the bytes",
        arguments: [
            #""list": "Pets""#, #""notes": "n""#, #""assignee": "ana""#, #""timeZone": "Europe/Berlin""#,
            #""end": "2026-01-01T00:00:00Z""#, #""lead": "2h""#, #""completions": ["2025-02-01T00:00:00Z"]"#,
            #""locations": [{"name": "Shop", "lat": 45.1, "lon": -13.6, "radius": 150}, {"lat": 0, "lon": 0, "radius": 1E2}]"#,
            #""title": "Crème brûlée ✓""#,
        ])
    func everyField(field: String) {
        let required = #""id": "a", "start": "2025-01-06T09:00:00Z", "schedule": {"fixed": {"every": "1d"}}"#
        let title = field.hasPrefix(#""title""#) ? "" : #", "title": "A""#
        #expect(readsDirectly("{\(required)\(title), \(field)}"))
    }

    @Test(
        "every kind of schedule is read straight from the bytes",
        arguments: [
            #"{"afterCompletion": {"min": "10w", "max": "14 weeks"}}"#, #"{"fixed": {"every": "1mo"}}"#,
            #"{"weekdays": {"days": ["mon", "fri"], "at": "18:00"}}"#, #"{"once": {"due": "2025-02-01T10:00:00Z"}}"#,
        ])
    func everySchedule(schedule: String) {
        #expect(readsDirectly(#"{"id": "a", "title": "A", "start": "2025-01-06T09:00:00Z", "schedule": \#(schedule)}"#))
    }
}
