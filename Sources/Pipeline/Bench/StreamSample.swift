/// An evenly spread sample of a stream of unknown length, in bounded memory.
///
/// Keeps every `stride`-th item offered; once twice ``capacity`` items are
/// kept it drops every other one and doubles the stride, so the items kept
/// are always those at multiples of the stride: evenly spread over the
/// whole stream, between ``capacity`` and twice as many (once the stream is
/// that long). Deterministic: the same stream gives the same sample.
struct StreamSample<Element> {
    /// The fewest items kept once the stream has that many.
    let capacity: Int
    /// The items kept, in stream order.
    private(set) var items: [Element] = []
    private var stride = 1
    private var seen = 0

    /// An empty sample keeping at least `capacity` items (at least 1).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Offers the stream's next item.
    mutating func offer(_ item: Element) {
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        items.append(item)
        if items.count == 2 * capacity {
            items = Swift.stride(from: 0, to: items.count, by: 2).map { items[$0] }
            stride *= 2
        }
    }

    /// `count` of the kept items spread evenly over them (all of them when
    /// fewer are kept).
    func evenly(_ count: Int) -> [Element] {
        guard count < items.count else { return items }
        return (0..<count).map { items[$0 * items.count / count] }
    }
}
