/// Writes ASCII into a fixed buffer, for encoders that form a whole record
/// before appending it once (no capacity or uniqueness check per byte).
///
/// The caller sizes the buffer for the longest record, with 8 bytes to
/// spare: every method writes without bounds checks, and
/// ``putChecksum(from:)`` zeroes the 8 bytes after the last one written to
/// read whole words. The buffer need not be initialized: nothing is read
/// that was not written.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    /// A cursor at the start of `buffer`.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { base = buffer.baseAddress! }

    /// The bytes written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Writes one byte.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Writes a literal.
    @inline(__always)
    mutating func put(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// Writes again the `length` bytes written from `start` on: a field
    /// that two sentences of one record share, formatted once.
    @inline(__always)
    mutating func repeatBytes(from start: Int, length: Int) {
        (base + count).update(from: base + start, count: length)
        count += length
    }

    /// Writes the last `width` (1…20) decimal digits of `value`, zero-padded.
    @inline(__always)
    mutating func put(digits value: UInt64, width: Int) {
        var rest = value
        var index = count + width
        while index > count {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: 0x30 &+ rest % 10)
            rest /= 10
        }
        count += width
    }

    /// Writes `value` rounded to `decimals` (0…9) places, like
    /// ``DecimalText/append(_:decimals:to:)``; nothing when `nil` or not finite.
    @inline(__always)
    mutating func put(_ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        let scaled = DecimalText.roundedMagnitude(value * Double(scale))
        if value < 0, scaled > 0 { put(0x2D) }
        let whole = scaled / scale
        var width = 1
        var rest = whole / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        put(digits: whole, width: width)
        if decimals > 0 {
            put(0x2E)
            put(digits: scaled % scale, width: decimals)
        }
    }

    /// Writes `*hh` — the XOR of the bytes after the `$` at `start` — and CRLF.
    @inline(__always)
    mutating func putChecksum(from start: Int) {
        // Eight bytes at a time, folded at the end: XOR does not care which
        // byte of a word a byte sits in, and the zeros after the last byte
        // written leave it as it is.
        UnsafeMutableRawPointer(base + count).storeBytes(of: 0, as: UInt64.self)
        let raw = UnsafeRawPointer(base)
        var word: UInt64 = 0
        var index = start + 1
        while index < count {
            word ^= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        word ^= word >> 32
        word ^= word >> 16
        word ^= word >> 8
        let checksum = UInt8(truncatingIfNeeded: word)
        let hex: StaticString = "0123456789ABCDEF"
        put(0x2A)
        put(hex.utf8Start[Int(checksum >> 4)])
        put(hex.utf8Start[Int(checksum & 15)])
        put(0x0D)
        put(0x0A)
    }
}
