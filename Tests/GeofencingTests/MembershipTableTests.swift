import TestSupport
import Testing

@testable import Geofencing

@Suite("A device's memberships by region key")
struct MembershipTableTests {
    @Test("reads, writes and removals agree with a dictionary, and iteration is in key order")
    func againstDictionary() {
        let seed = SeededRandom.testSeed(default: 20_261_124)
        print("MembershipTableTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for keyRange in [0...3, 0...20, -50...500] {
            var table = MembershipTable()
            var reference: [Int: Membership] = [:]
            for step in 0..<20_000 {
                let key = Int.random(in: keyRange, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4:
                    let membership = Membership.entering(count: step)
                    table[key] = membership
                    reference[key] = membership
                case 4..<6:
                    table[key] = nil
                    reference[key] = nil
                default:
                    #expect(table[key] == reference[key], "key \(key) at step \(step)")
                }
                #expect(table.count == reference.count)
            }
            #expect(table.map(\.key) == reference.keys.sorted())
            #expect(table.allSatisfy { reference[$0.key] == $0.membership })
        }
    }
}
