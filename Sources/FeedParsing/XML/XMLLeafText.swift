/// The text of the element a SAX parse is reading a value from, kept up to
/// ``maximumKept`` bytes (so a 200 MB field costs 64 KiB, as the other
/// formats' line limit), with the length it really had.
struct XMLLeafText {
    /// The most bytes kept.
    static let maximumKept = 64 * 1024

    /// The bytes kept.
    private(set) var bytes: [UInt8] = []
    /// The bytes the element had, kept or not.
    private(set) var length = 0

    init() { bytes.reserveCapacity(64) }

    /// Whether the element had more text than was kept.
    var isTooLong: Bool { length > Self.maximumKept }

    /// The kept bytes without their leading and trailing blanks.
    var trimmed: ArraySlice<UInt8> {
        let (s, e) = trimmedBounds
        return bytes[s..<e]
    }

    /// Where ``trimmed`` starts and ends in ``bytes``: the GPX decoder, which
    /// reads several leaves a point, reads them in place rather than slice them.
    var trimmedBounds: (start: Int, end: Int) {
        var s = 0
        var e = bytes.count
        while s < e, Self.isBlank(bytes[s]) { s += 1 }
        while e > s, Self.isBlank(bytes[e - 1]) { e -= 1 }
        return (s, e)
    }

    /// Starts a new element's text.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        length = 0
    }

    /// Adds a run of characters libxml2 handed on.
    mutating func append(_ characters: UnsafePointer<UInt8>, count: Int) {
        length += count
        let kept = min(count, Self.maximumKept - bytes.count)
        if kept > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: characters, count: kept)) }
    }

    /// XML's blanks: space, tab, line feed, carriage return.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
