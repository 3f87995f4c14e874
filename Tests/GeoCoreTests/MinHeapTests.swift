import GeoCore
import TestSupport
import Testing

@Suite("Min-heap")
struct MinHeapTests {
    @Test("seeded: inserts and pops in any mix give the smallest each time, as a sorted list does")
    func matchesASortedList() {
        let seed = SeededRandom.testSeed(default: 41)
        var random = SeededRandom(seed: seed)
        var heap = MinHeap<Int>()
        var reference: [Int] = []
        for step in 0..<60_000 {
            // Mostly growing, then draining, with many equal keys.
            let popping = step < 40_000 ? random.next() % 3 == 0 : random.next() % 4 != 0
            if popping {
                let expected = reference.isEmpty ? nil : reference.removeFirst()
                #expect(heap.popMin() == expected, "step \(step), seed \(seed)")
            } else {
                let value = Int(random.next() % 5_000)
                heap.insert(value)
                reference.insert(value, at: reference.firstIndex { $0 > value } ?? reference.endIndex)
            }
            #expect(heap.count == reference.count && heap.min == reference.first, "step \(step), seed \(seed)")
            if heap.count != reference.count { return }
        }
        while let expected = reference.first {
            reference.removeFirst()
            #expect(heap.popMin() == expected)
        }
        #expect(heap.isEmpty && heap.popMin() == nil)
    }
}
