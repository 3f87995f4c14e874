import GeoCore
import TestSupport
import Testing

/// NamePositions against a `Dictionary` that keeps each name's first
/// position: the same answers, through the slots' growth.
@Suite struct NamePositionsTests {
    /// Names of every length around the hash's word sizes (up to 40
    /// letters), drawn from few letters so that many repeat; some not
    /// ASCII, some equal as `String` tells them though their bytes differ
    /// ("é" as one scalar or two; the Kelvin sign and "K").
    static func name(_ random: inout SeededRandom) -> String {
        let letters = ["a", "b", "-", "7", "\u{E9}", "e\u{301}", "K", "\u{212A}"]
        let length = Int(random.next() % 41)
        return (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }.joined()
    }

    @Test("seeded: each name's first position, as a dictionary keeps it, through the slots' growth")
    func firstPositionsAsADictionary() {
        let seed = SeededRandom.testSeed(default: 67)
        print("NamePositionsTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        for round in 0..<20 {
            // No room asked for, or too little: the slots grow as names come.
            var table = NamePositions(capacity: Int(random.next() % 50))
            var reference: [String: Int] = [:]
            var order: [String] = []
            for position in 0..<Int(random.next() % 3_000) {
                let name = Self.name(&random)
                let earlier = table.recordFirst(name, at: position)
                #expect(earlier == reference[name], "round \(round), \(name)")
                if reference[name] == nil {
                    reference[name] = position
                    order.append(name)
                }
            }
            #expect(table.count == reference.count)
            #expect(table.entries.map(\.name) == order, "in the order first recorded")
            #expect(table.entries.map(\.position) == order.map { reference[$0]! })
            for name in order { #expect(table[name] == reference[name], "round \(round), \(name)") }
            for _ in 0..<200 {
                let name = Self.name(&random) + "x"
                #expect(table[name] == reference[name], "round \(round), \(name)")
            }
        }
    }

    @Test("seeded: names recorded in blocks give the positions of names recorded one by one, and stop at the first repeat")
    func recordedInBlocks() {
        let seed = SeededRandom.testSeed(default: 71)
        print("NamePositionsTests seed \(seed) (REPEAT_SEED to replay)")
        var random = SeededRandom(seed: seed)
        var repeats = 0
        for round in 0..<40 {
            // Mostly distinct names (a tasks file's ids), with a repeat now and then.
            let count = Int(random.next() % 400)
            var names = (0..<count).map { "\($0)-" + Self.name(&random) }
            if count > 1, random.next() % 2 == 0 {
                names[Int(random.next() % UInt64(count - 1)) + 1] = names[Int(random.next() % UInt64(count))]
            }
            let first = Int(random.next() % 1_000)
            var oneByOne = NamePositions(capacity: Int(random.next() % 50))
            var inBlocks = oneByOne
            var expected: (offset: Int, earlier: Int)?
            for (offset, name) in names.enumerated() {
                if let earlier = oneByOne.recordFirst(name, at: first + offset) {
                    expected = (offset, earlier)
                    break
                }
            }
            let found = inBlocks.recordFirst(names.count, from: first) { names[$0] }
            #expect(found?.offset == expected?.offset && found?.earlier == expected?.earlier, "round \(round)")
            #expect(inBlocks.entries.elementsEqual(oneByOne.entries, by: ==), "round \(round)")
            for name in names { #expect(inBlocks[name] == oneByOne[name], "round \(round), \(name)") }
            if expected != nil { repeats += 1 }
        }
        #expect(repeats > 5 && repeats < 35, "\(repeats) of 40 rounds with a repeat")
    }
}
