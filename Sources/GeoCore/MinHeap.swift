/// A min-heap: the simulator's bounded reorder buffer and merge of the
/// devices' streams, and the scheduler's agenda.
///
/// Four children to a node rather than two: half the levels, and a node's
/// children side by side in memory, so that taking the smallest of a large
/// heap (100 000 tasks on the scheduler's agenda) waits on half as many
/// cache misses.
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
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 4
            guard element < elements[parent] else { break }
            elements[child] = elements[parent]
            child = parent
        }
        elements[child] = element
    }

    /// Removes and returns the smallest element.
    @inlinable public mutating func popMin() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let smallest = elements[0]
        // The last element sinks from the top, the smallest child rising
        // into each place it leaves.
        let count = elements.count
        var parent = 0
        while true {
            let first = 4 * parent + 1
            guard first < count else { break }
            var smaller = first
            for child in (first + 1)..<Swift.min(first + 4, count) where elements[child] < elements[smaller] {
                smaller = child
            }
            guard elements[smaller] < last else { break }
            elements[parent] = elements[smaller]
            parent = smaller
        }
        elements[parent] = last
        return smallest
    }

    /// Removes every element.
    @inlinable public mutating func removeAll() { elements.removeAll() }
}

extension MinHeap: Sendable where Element: Sendable {}
