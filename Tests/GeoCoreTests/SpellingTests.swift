import GeoCore
import Testing

/// "Did you mean …?" for names a person typed.
@Suite("Spelling")
struct SpellingTests {
    @Test("edit distances: insertions, deletions and substitutions, by characters")
    func distances() {
        #expect(Spelling.distance("", "") == 0)
        #expect(Spelling.distance("kitten", "sitting") == 3)
        #expect(Spelling.distance("Berln", "Berlin") == 1)
        #expect(Spelling.distance("café", "cafe") == 1)
        #expect(Spelling.distance("abc", "") == 3)
    }

    @Test("a suggestion: the same name but for case first, else the nearest within the bound, else none")
    func suggestions() {
        let names = ["buy-cat-medicine", "water-plants", "Buy-Bread", "bins"]
        #expect(Spelling.suggestion(for: "BINS", in: names, maximumDistance: 0) == "bins")
        #expect(Spelling.suggestion(for: "buy-bread", in: names, maximumDistance: 5) == "Buy-Bread")
        #expect(Spelling.suggestion(for: "buy-cat-medcine", in: names, maximumDistance: 2) == "buy-cat-medicine")
        #expect(Spelling.suggestion(for: "water-plnts", in: names, maximumDistance: 1) == "water-plants")
        #expect(Spelling.suggestion(for: "groceries", in: names, maximumDistance: 3) == nil)
        #expect(Spelling.suggestion(for: "bins", in: [], maximumDistance: 3) == nil)
    }
}
