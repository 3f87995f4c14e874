/// Table columns written straight into output bytes: the text that
/// ``Swift/String/padded(_:)``, ``Swift/String/fitted(_:)`` and
/// ``Swift/String/terminalSafe`` make, with no string built per column.
///
/// Text of printable ASCII alone (times, numbers, most ids and names) is
/// measured by its bytes; any other goes through those strings, which
/// count characters. Built a string at a time, a table row of `replay`
/// took some 26 000 instructions and one of `decode` 2.5 µs, three times
/// its JSON line.
extension [UInt8] {
    /// `text`, then spaces to `width` characters; never cut.
    mutating func appendColumn(_ text: String, paddedTo width: Int) {
        guard let count = Self.printableASCIICount(text) else {
            append(contentsOf: text.padded(width).utf8)
            return
        }
        append(contentsOf: text.utf8)
        appendSpaces(width - count)
    }

    /// Spaces, then `text`, to `width` characters; never cut.
    mutating func appendColumn(_ text: String, rightAlignedTo width: Int) {
        appendSpaces(width - (Self.printableASCIICount(text) ?? text.count))
        append(contentsOf: text.utf8)
    }

    /// `text` made safe for a terminal, cut to `width` characters with an
    /// ellipsis or padded to them.
    mutating func appendColumn(_ text: String, fittedTo width: Int) {
        guard let count = Self.printableASCIICount(text) else {
            append(contentsOf: text.fitted(width).utf8)
            return
        }
        if count > width {
            append(contentsOf: text.utf8.prefix(width - 1))
            append(contentsOf: "…".utf8)
        } else {
            append(contentsOf: text.utf8)
            appendSpaces(width - count)
        }
    }

    /// `text` with its control characters escaped.
    mutating func appendTerminalSafe(_ text: String) {
        append(contentsOf: Self.printableASCIICount(text) == nil ? text.terminalSafe.utf8 : text.utf8)
    }

    /// `count` spaces; none when `count` is not above zero.
    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// `value` in fixed point with `decimals` digits after the point (at
    /// most nine), right-aligned to `width` characters: `-0.5` stays
    /// `-0.5`, a value that rounds to zero loses its sign, and a value of
    /// 10^15 units of the last digit or more is written as Swift writes
    /// it (`-` when not finite).
    mutating func appendFixedPoint(_ value: Double, decimals: Int, width: Int) {
        precondition((0...9).contains(decimals), "at most nine decimals")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else {
            appendColumn(value.isFinite ? String(value) : "-", rightAlignedTo: width)
            return
        }
        // Below 10^15 the quotient never rounds up to the next whole
        // number, so the fraction lies in 0..<scale.
        var whole = UInt64(scaled / scale)
        var fraction = UInt64(scaled - Double(whole) * scale)
        // Sixteen digits, a sign, a point and nine decimals at most.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            var start = text.count
            func put(_ byte: UInt8) {
                start -= 1
                text[start] = byte
            }
            if decimals > 0 {
                for _ in 0..<decimals {
                    put(UInt8(ascii: "0") + UInt8(fraction % 10))
                    fraction /= 10
                }
                put(UInt8(ascii: "."))
            }
            repeat {
                put(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
            } while whole > 0
            if value < 0, scaled != 0 { put(UInt8(ascii: "-")) }
            appendSpaces(width - (text.count - start))
            append(contentsOf: UnsafeMutableBufferPointer(rebasing: text[start...]))
        }
    }

    /// How many bytes `text` has, when each is printable ASCII (a space to
    /// `~`), so that its characters are its bytes and it is safe for a
    /// terminal as it is; `nil` otherwise.
    private static func printableASCIICount(_ text: String) -> Int? {
        let count = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { (0x20...0x7E).contains($0) } ? bytes.count : nil
        }
        return count ?? nil
    }
}
