import GeoCore

/// Several devices' streams merged into one, by a time key and then by
/// device order; each stream must already be in key order, and keeps its
/// own order within the merge. Holds one element per device (none for a
/// single device, whose stream passes straight through).
struct DeviceMerge<Stream: IteratorProtocol>: IteratorProtocol {
    private struct Head: Comparable {
        var key: Int64
        var device: Int
        var element: Stream.Element

        static func < (lhs: Head, rhs: Head) -> Bool { (lhs.key, lhs.device) < (rhs.key, rhs.device) }
        static func == (lhs: Head, rhs: Head) -> Bool { (lhs.key, lhs.device) == (rhs.key, rhs.device) }
    }

    private var streams: [Stream]
    private let key: (Stream.Element) -> Int64
    private var heads = MinHeap<Head>()

    init(_ streams: [Stream], key: @escaping (Stream.Element) -> Int64) {
        self.streams = streams
        self.key = key
        if streams.count > 1 {
            for device in streams.indices { pull(device) }
        }
    }

    /// The next element and the index of the device it comes from.
    @inline(__always)
    mutating func next() -> (device: Int, element: Stream.Element)? {
        if streams.count == 1 { return streams[0].next().map { (0, $0) } }
        guard let head = heads.popMin() else { return nil }
        pull(head.device)
        return (head.device, head.element)
    }

    private mutating func pull(_ device: Int) {
        if let element = streams[device].next() { heads.insert(Head(key: key(element), device: device, element: element)) }
    }
}
