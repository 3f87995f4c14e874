import GeoCore
import Testing

@testable import Pipeline

@Suite("Fix array pool")
struct FixArrayPoolTests {
    static func fixes(_ count: Int) -> [Fix] {
        (0..<count).map { Fix(time: Timestamp(nanoseconds: Int64($0)), coordinate: Coordinate(latitude: 52, longitude: 13)) }
    }

    static func storage(_ fixes: [Fix]) -> UnsafeRawPointer? {
        fixes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("a read's fixes come back, emptied, in the same storage once the last slice lets go of them")
    func sharedFixesComeBack() {
        let pool = FixArrayPool(limit: 2)
        var read: SharedFixes? = SharedFixes(Self.fixes(1_000), returningTo: pool)
        let storage = Self.storage(read!.fixes)
        let slices = [read!, read!]
        read = nil
        #expect(pool.take(capacity: 10).isEmpty, "held by the slices: nothing kept yet")
        _ = consume slices
        let again = pool.take(capacity: 500)
        #expect(again.isEmpty)
        #expect(again.capacity >= 1_000)
        #expect(Self.storage(again) == storage, "the same pages, not a new array")
    }

    @Test("at most `limit` arrays are kept; an empty pool gives a new array with the room asked for")
    func keepsAtMostLimit() {
        let pool = FixArrayPool(limit: 2)
        for _ in 0..<3 { pool.recycle(Self.fixes(100)) }
        for _ in 0..<2 {
            let kept = pool.take(capacity: 1)
            #expect(kept.isEmpty)
            #expect(kept.capacity >= 100, "a kept array")
        }
        let fresh = pool.take(capacity: 1)
        #expect(fresh.capacity < 100, "the third was not kept")
        #expect(pool.take(capacity: 5_000).capacity >= 5_000)
    }
}
