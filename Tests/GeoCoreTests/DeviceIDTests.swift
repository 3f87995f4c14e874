import Foundation
import GeoCore
import Synchronization
import Testing

@Suite struct DeviceIDTests {
    @Test func equalNamesGiveOneIDAndEveryNameComesBack() {
        let names = ["", "car", "Car", "vehicle-of-the-fleet-00017", "vehicle-of-the-fleet-00018", "Zürich\u{00A0}", "🚌"]
        let first = names.map(DeviceID.init)
        let second = names.map { DeviceID(String($0.unicodeScalars)) }
        #expect(first == second)
        #expect(Set(first).count == names.count, "distinct names, distinct IDs")
        #expect(first.map(\.name) == names)
        #expect(DeviceID.unnamed == DeviceID(""))
    }

    /// The shard of a device must not change between processes or
    /// machines: FNV-1a's published test vectors.
    @Test func stableHashIsFNV1a() {
        #expect(DeviceID("").stableHash == 0xcbf2_9ce4_8422_2325)
        #expect(DeviceID("a").stableHash == 0xaf63_dc4c_8601_ec8c)
        #expect(DeviceID("foobar").stableHash == 0x8594_4171_f739_67e8)
    }

    /// Threads interning the same names at once (as decoders on their own
    /// threads do) agree on one ID per name.
    @Test func threadsInterningAtOnceAgree() {
        let names = (0..<2_000).map { "device-\($0 % 700)-\($0 % 3 == 0 ? "of-a-long-fleet-name" : "x")" }
        let results = Mutex([[DeviceID]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let ids = (thread % 2 == 0 ? names : names.reversed()).map(DeviceID.init)
            results.withLock { $0[thread] = thread % 2 == 0 ? ids : ids.reversed() }
        }
        let all = results.withLock { $0 }
        for thread in 1..<4 { #expect(all[thread] == all[0], "thread \(thread)") }
        #expect(all[0].map(\.name) == names)
        #expect(Set(all[0]).count == Set(names).count)
    }

    /// What the pipeline copies a fix by: with a reference in it, every
    /// copy goes through retain and release.
    @Test func aFixHoldsNoReference() {
        #expect(_isPOD(Fix.self))
        #expect(_isPOD(TimedFix.self))
        #expect(MemoryLayout<DeviceID?>.size == MemoryLayout<DeviceID>.size)
        var fix = Fix(time: nil, coordinate: Coordinate(latitude: 1, longitude: 2), device: "car")
        #expect(fix.deviceID == DeviceID("car"))
        fix.device = nil
        #expect(fix.deviceID == nil)
    }
}
