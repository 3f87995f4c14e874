/// A binary min-heap: the simulator's bounded reorder buffer and merge of
/// the devices' streams, and the scheduler's agenda.
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
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element.
    @inlinable public mutating func popMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let smallest = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smaller = parent
            if left < elements.count, elements[left] < elements[smaller] { smaller = left }
            if right < elements.count, elements[right] < elements[smaller] { smaller = right }
            if smaller == parent { break }
            elements.swapAt(parent, smaller)
            parent = smaller
        }
        return smallest
    }

    /// Removes every element.
    @inlinable public mutating func removeAll() { elements.removeAll() }
}

extension MinHeap: Sendable where Element: Sendable {}
