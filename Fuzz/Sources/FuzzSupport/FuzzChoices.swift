/// The choices a fuzz target makes beside the bytes it decodes (where to
/// split the input into chunks, which options to decode with), all drawn
/// from a hash of the input: the same input always makes the same choices,
/// so a crash file replays exactly, and every mutation of an input also
/// moves its chunk boundaries.
public struct FuzzChoices {
    private var state: UInt64

    /// Choices for `input` (FNV-1a of its bytes, then SplitMix64 steps).
    public init(_ input: UnsafeRawBufferPointer) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability `1/n`.
    public mutating func oneIn(_ n: Int) -> Bool {
        below(n) == 0
    }

    /// Where to cut an input of `count` bytes: zero, one or two ascending
    /// offsets in `0...count` (so 1–3 chunks; a cut at either end makes an
    /// empty chunk, which decoders must take too).
    public mutating func cuts(in count: Int) -> [Int] {
        (0..<below(3)).map { _ in below(count + 1) }.sorted()
    }
}

extension UnsafeRawBufferPointer {
    /// The chunks between `cuts` (ascending offsets), in order.
    public func chunks(at cuts: [Int]) -> [UnsafeRawBufferPointer] {
        var start = 0
        var chunks: [UnsafeRawBufferPointer] = []
        for cut in cuts + [count] {
            chunks.append(UnsafeRawBufferPointer(rebasing: self[start..<cut]))
            start = cut
        }
        return chunks
    }
}
