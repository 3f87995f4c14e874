/// A min-heap: the simulator's bounded reorder buffer and merge of the
/// devices' streams, and the hours of the scheduler's agenda that the
/// clock has reached.
///
/// Four children to a node rather than two: half the levels, and a node's
/// children side by side in memory, so that taking the smallest of a large
/// heap waits on half as many cache misses.
public struct MinHeap<Element: Comparable> {
    @usableFromInline var elements: [Element] = []

    /// An empty heap.
    @inlinable public init() {}

    /// Whether the heap is empty.
    @inlinable public var isEmpty: Bool { elements.isEmpty }
    /// The number of elements.
    @inlinable public var count: Int { elements.count }
    /// The smallest element.
    @inlinable public var min: Element? { elements.first }

    /// Adds `element`.
    @inlinable public mutating func insert(_ element: Element) {
        elements.append(element)
        elements.withUnsafeMutableBufferPointer { Self.rise(element, from: $0.count - 1, in: $0) }
    }

    /// Removes and returns the smallest element.
    ///
    /// The hole the smallest leaves sinks to a leaf, the smallest child
    /// rising into each place it leaves, and the last element then rises
    /// from there to its place: it nearly always belongs near the bottom,
    /// so this asks about half the questions of sinking it from the top.
    @inlinable public mutating func popMin() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        return elements.withUnsafeMutableBufferPointer { heap in
            let smallest = heap[0]
            let count = heap.count
            var hole = 0
            while true {
                let first = 4 * hole + 1
                guard first < count else { break }
                var smaller = first
                for child in (first + 1)..<Swift.min(first + 4, count) where heap[child] < heap[smaller] {
                    smaller = child
                }
                heap[hole] = heap[smaller]
                hole = smaller
            }
            Self.rise(last, from: hole, in: heap)
            return smallest
        }
    }

    /// Puts `element` in the hole at `hole` or above it: each parent
    /// larger than it moves down into the hole.
    @inlinable static func rise(_ element: Element, from hole: Int, in heap: UnsafeMutableBufferPointer<Element>) {
        var hole = hole
        while hole > 0 {
            let parent = (hole - 1) / 4
            guard element < heap[parent] else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = element
    }

    /// Removes every element.
    @inlinable public mutating func removeAll() { elements.removeAll() }
}

extension MinHeap: Sendable where Element: Sendable {}
