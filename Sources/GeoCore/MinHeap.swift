/// A binary min-heap: the simulator's bounded reorder buffer and merge of
/// the devices' streams, and the scheduler's agenda.
package struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    /// An empty heap.
    package init() {}

    /// Whether the heap is empty.
    package var isEmpty: Bool { elements.isEmpty }
    /// The number of elements.
    package var count: Int { elements.count }
    /// The smallest element.
    package var min: Element? { elements.first }

    /// Adds `element`.
    package mutating func insert(_ element: Element) {
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
    package mutating func popMin() -> Element? {
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
    package mutating func removeAll() { elements.removeAll() }
}

extension MinHeap: Sendable where Element: Sendable {}
