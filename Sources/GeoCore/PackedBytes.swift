/// Bytes that hold state set aside in its least memory: what a stage
/// keeps of a device that has gone quiet (see ``DeviceTable``), written
/// field after field and read back in the same order.
///
/// Integers are little-endian and Doubles their bit patterns, so a value
/// reads back exactly; counts and small numbers are LEB128 varints.
package struct PackedWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer.
    package init() {}

    /// Appends a byte.
    package mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends `value`'s 8 bytes.
    package mutating func write(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value`'s bit pattern.
    package mutating func write(_ value: Double) { write(Int64(bitPattern: value.bitPattern)) }

    /// Appends a non-negative `value` in 1 to 10 bytes.
    package mutating func write(count value: Int) {
        precondition(value >= 0, "a count is never negative")
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends a string's UTF-8 bytes after their count.
    package mutating func write(_ text: String) {
        write(count: text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    /// The bytes in an array of their size.
    package var packed: [UInt8] { bytes.trimmed() }
}

/// Reads what a ``PackedWriter`` wrote, in the same order.
package struct PackedReader: Sendable {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader at the start of `bytes`.
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte.
    package mutating func readByte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    /// The next 8-byte integer.
    package mutating func readInt64() -> Int64 {
        var value: Int64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= Int64(readByte()) << shift }
        return value
    }

    /// The next Double.
    package mutating func readDouble() -> Double { Double(bitPattern: UInt64(bitPattern: readInt64())) }

    /// The next count.
    package mutating func readCount() -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = readByte()
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(value) }
            shift += 7
        }
    }

    /// The next string.
    package mutating func readString() -> String {
        let count = readCount()
        defer { position += count }
        return String(decoding: bytes[position..<(position + count)], as: UTF8.self)
    }
}
