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

    /// A decoder's question for each record: its name, added if plain
    /// (ASCII without `"`) unless it is the last one added, asked about.
    @Test("a plain name is added unless it is the last one, asked about; any other is not added")
    func plainNamesUnlessLast() {
        let long = "vehicle-of-the-fleet-000017"
        let steps: [(name: String, unlessLast: Bool, expected: DeviceNameBatch.PlainAppend)] = [
            ("car", true, .appended), ("car", true, .sameAsLast), ("car", false, .appended),
            ("cab", true, .appended), (long, true, .appended), (long, true, .sameAsLast),
            (long + "x", true, .appended), ("c\"ar", true, .notPlain), ("Zürich", true, .notPlain),
            (long + "é", true, .notPlain), ("", true, .appended), ("", true, .sameAsLast),
            ("exactly-16-bytes", true, .appended), ("exactly-16-byte!", true, .appended),
        ]
        var batch = DeviceNameBatch()
        var added: [String] = []
        for step in steps {
            var utf8 = step.name
            let outcome = utf8.withUTF8 { batch.appendIfPlain(utf8: $0, unlessLast: step.unlessLast) }
            #expect(outcome == step.expected, "\(step)")
            if outcome == .appended { added.append(step.name) }
        }
        #expect(batch.intern().map(\.name) == added)
    }

    /// A fleet that names its devices in the same order at every round,
    /// as the table numbers them, but not always: some rounds swap
    /// neighbours, skip devices, bring new ones in, or carry a long name;
    /// and another decoder's batch interns names in between, so that a
    /// name's successor in the table is not always the fleet's next. The
    /// IDs are those that interning each name alone gives.
    @Test("seeded: a fleet named in the same order at each round, with changes, gets its names' IDs")
    func fleetInTheSameOrder() {
        let seed = SeededRandom.testSeed(default: 29)
        print("DeviceNameBatchTests fleet seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        var fleet = (0..<700).map { "f\(seed % 1_000)-\($0)" }
        var batch = DeviceNameBatch()
        var other = DeviceNameBatch()
        for round in 0..<30 {
            var names = fleet
            for _ in 0..<Int(random.next() % 5) {
                let index = Int(random.next() % UInt64(names.count - 1))
                names.swapAt(index, index + 1)
            }
            for _ in 0..<Int(random.next() % 5) { names.remove(at: Int(random.next() % UInt64(names.count))) }
            for _ in 0..<Int(random.next() % 3) {
                let name = "f\(seed % 1_000)-new-\(round)-\(random.next() % 1_000)"
                names.insert(name, at: Int(random.next() % UInt64(names.count)))
                fleet.append(name)
            }
            if round % 7 == 3 { names.insert("a device with a name longer than sixteen bytes", at: names.count / 2) }
            var ids: [DeviceID] = []
            for (index, name) in names.enumerated() {
                batch.append(name)
                if index % 256 == 255 || index == names.count - 1 { ids += batch.intern() }
                if random.next() % 100 == 0 {
                    other.append("f\(seed % 1_000)-other-\(random.next() % 100)")
                    _ = other.intern()
                }
            }
            #expect(ids.map(\.name) == names, "round \(round), seed \(seed)")
            #expect(ids == names.map(DeviceID.init), "round \(round), seed \(seed)")
        }
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
