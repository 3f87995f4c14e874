/// A binary min-heap: the bounded reorder buffer and the merge of the
/// devices' streams.
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }
    /// The smallest element.
    var min: Element? { elements.first }

    mutating func insert(_ element: Element) {
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
    mutating func popMin() -> Element? {
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
}
