import GeoCore
import TestSupport
import Testing

@Suite("Device name batches")
struct DeviceNameBatchTests {
    /// Batches of names met before and names not, repeated within a batch,
    /// long and short, non-ASCII and repaired: the IDs are those that
    /// interning each name alone gives, whatever the batch's size (blocks
    /// of lookups, names new in the middle of a block).
    @Test("seeded: a batch's IDs are the names' IDs one by one")
    func matchesInterningOneByOne() {
        let seed = SeededRandom.testSeed(default: 73)
        print("DeviceNameBatchTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let fixed = ["", "car", "Zürich\u{00A0}", "🚌", "vehicle-of-the-fleet-000017", "c\"ar", "Z\u{FFFD}a"]
        var batch = DeviceNameBatch()
        for round in 0..<40 {
            let count = Int(random.next() % 300)
            let names = (0..<count).map { _ -> String in
                switch random.next() % 4 {
                case 0: fixed[Int(random.next() % UInt64(fixed.count))]
                case 1: "batch-test-\(seed)-\(round)-\(random.next() % 50)"
                default: "batch-test-\(seed)-fleet-member-\(random.next() % 2_000)"
                }
            }
            for (index, name) in names.enumerated() {
                if index % 2 == 0 {
                    batch.append(name)
                } else {
                    var utf8 = name
                    utf8.withUTF8 { batch.append(utf8: $0) }
                }
                #expect(batch.lastNameUTF8 == Array(name.utf8))
                var utf8 = name
                #expect(utf8.withUTF8 { batch.lastName(is: $0) })
                var other = name + "x"
                #expect(!other.withUTF8 { batch.lastName(is: $0) })
            }
            #expect(batch.count == count)
            let ids = batch.intern()
            #expect(batch.count == 0, "interning empties the batch")
            #expect(ids.map(\.name) == names, "round \(round), seed \(seed)")
            #expect(ids == names.map(DeviceID.init), "round \(round), seed \(seed)")
        }
        #expect(batch.intern().isEmpty)
    }

    /// Bytes that are not UTF-8 name the device that a `String` made of
    /// them names (the decoder gathers them as such a string).
    @Test func repairedNamesAreTheStringsNames() {
        var batch = DeviceNameBatch()
        batch.append(String(decoding: [0x5A, 0xFF, 0x61], as: UTF8.self))
        batch.append(String(decoding: [0x5A, 0xFE, 0x61], as: UTF8.self))
        #expect(batch.intern() == [DeviceID("Z\u{FFFD}a"), DeviceID("Z\u{FFFD}a")])
    }
}
