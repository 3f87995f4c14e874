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

    @Test("a likely meaning: the same but for case, a name it begins, a few edits away; nothing for a name far from all")
    func likelyMeanings() {
        let metrics = ["enter.recall", "enter.precision", "exit.recall", "km", "index_vs_bruteforce", "allocations_per_1k_fixes"]
        #expect(Spelling.likely("KM", in: metrics) == "km")
        #expect(Spelling.likely("enter.recal", in: metrics) == "enter.recall")
        #expect(Spelling.likely("index_vs_brute", in: metrics) == "index_vs_bruteforce", "a name it begins")
        #expect(Spelling.likely("enter", in: metrics) == "enter.recall", "the shortest of those it begins")
        #expect(Spelling.likely("allocations_per_fix", in: metrics) == "allocations_per_1k_fixes")
        #expect(Spelling.likely("exit.recal", in: metrics) == "exit.recall")
        #expect(Spelling.likely("kn", in: metrics) == "km")
        // Far from every name, or nothing typed: no suggestion rather than an arbitrary one.
        #expect(Spelling.likely("qqq", in: metrics) == nil)
        #expect(Spelling.likely("latency", in: metrics) == nil)
        #expect(Spelling.likely("e", in: metrics) == nil, "one letter begins too many")
        #expect(Spelling.likely("", in: metrics) == nil)
        #expect(Spelling.likely("km", in: []) == nil)
    }
}
