/// A name of at most 16 bytes held in two words and its length, packed as
/// ``NameHash`` reads a name's last block: two names are the same exactly
/// when these are, so a table of device names compares a short name
/// without reading its bytes again, and hashes it without a loop.
///
/// Packing, by length n: 9…16, the words at 0 and at n − 8 (overlapping
/// when n < 16); 4…8, the 32-bit halves at 0 and at n − 4 in one word
/// (overlapping when n < 8); 1…3, the bytes at 0, n / 2 and n − 1; 0,
/// nothing. Every byte is in a word, and the length says where.
struct ShortName: Equatable, Sendable {
    /// The first word (``NameHash``'s low word).
    let first: UInt64
    /// The second word (``NameHash``'s high word; 0 below 9 bytes).
    let second: UInt64
    /// The number of bytes.
    let count: Int

    /// `bytes` packed; `nil` when longer than 16 bytes.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count <= 16 else { return nil }
        self.count = count
        switch count {
        case 9...:
            (first, second) = (Self.word(bytes, 0), Self.word(bytes, count - 8))
        case 4...:
            (first, second) = (UInt64(Self.half(bytes, 0)) << 32 | UInt64(Self.half(bytes, count - 4)), 0)
        case 1...:
            (first, second) = (UInt64(bytes[0]) << 16 | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1]), 0)
        default:
            (first, second) = (0, 0)
        }
    }

    /// Whether every byte is ASCII and none is `"`: bytes a decoder can
    /// take as a name's UTF-8 as they are (the words' unused bytes are 0,
    /// which is neither).
    var isASCIIWithoutQuotes: Bool { ByteWords.highOrQuote(first) | ByteWords.highOrQuote(second) == 0 }

    /// The bytes, in order.
    var bytes: [UInt8] { withBytes { [UInt8]($0) } }

    /// Calls `body` with the bytes, in order, unpacked on the stack.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var storage: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &storage) { raw in
            switch count {
            case 9...:
                raw.storeBytes(of: second.littleEndian, toByteOffset: count - 8, as: UInt64.self)
                raw.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt64.self)
            case 4...:
                raw.storeBytes(of: UInt32(truncatingIfNeeded: first).littleEndian, toByteOffset: count - 4, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: first >> 32).littleEndian, toByteOffset: 0, as: UInt32.self)
            case 1...:
                raw[count - 1] = UInt8(truncatingIfNeeded: first)
                raw[count / 2] = UInt8(truncatingIfNeeded: first >> 8)
                raw[0] = UInt8(truncatingIfNeeded: first >> 16)
            default: break
            }
            return body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func half(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
