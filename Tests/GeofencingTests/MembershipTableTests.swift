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

    @Test("an update of ascending keys in one walk sees and sets what a lookup and a write of each key would")
    func updateInOneWalk() {
        let seed = SeededRandom.testSeed(default: 20_261_205)
        print("MembershipTableTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for keyRange in [0...3, 0...40, -50...500] {
            var table = MembershipTable()
            var reference: [Int: Membership] = [:]
            for step in 0..<2_000 {
                let keys = Set((0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: keyRange, using: &random) })
                // Each key's outcome drawn before: set, remove or keep.
                let outcomes = Dictionary(uniqueKeysWithValues: keys.map { ($0, Int.random(in: 0..<3, using: &random)) })
                var seen: [Int: Membership?] = [:]
                table.update(ascending: keys.sorted()) { key, membership in
                    seen[key] = membership
                    switch outcomes[key]! {
                    case 0: return .entering(count: step)
                    case 1: return nil
                    default: return membership
                    }
                }
                for key in keys {
                    #expect(seen[key] == .some(reference[key]), "key \(key) at step \(step)")
                    switch outcomes[key]! {
                    case 0: reference[key] = .entering(count: step)
                    case 1: reference[key] = nil
                    default: break
                    }
                }
                #expect(seen.count == keys.count)
                #expect(table.map(\.key) == reference.keys.sorted(), "step \(step)")
                #expect(table.allSatisfy { reference[$0.key] == $0.membership }, "step \(step)")
            }
        }
    }
}
