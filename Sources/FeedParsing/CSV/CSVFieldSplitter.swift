import GeoCore

/// Cuts one delimited line into field ranges, the same way for every
/// reader of delimited text: blanks before a field are skipped, a field
/// that starts with `"` runs to the next lone `"` (a doubled `""` is a
/// quote inside it) and the quotes are left out of its range.
package enum CSVFieldSplitter {
    /// Fills `starts` and `ends` with the byte ranges of `bytes`' fields.
    package static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, starts: inout [Int], ends: inout [Int]
    ) {
        if delimiter != 0x22, delimiter != 0x20, splitUnquoted(bytes, delimiter: delimiter, starts: &starts, ends: &ends) {
            return
        }
        splitAnyLine(bytes, delimiter: delimiter, starts: &starts, ends: &ends)
    }

    /// ``split(_:delimiter:starts:ends:)`` of a line without a `"`, which
    /// is every line of most files: the delimiters found eight bytes at a
    /// time, and the ranges written over the last line's (the arrays keep
    /// their length from line to line). `false` when the line has a quote,
    /// and the ranges are left for the full split to write.
    private static func splitUnquoted(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, starts: inout [Int], ends: inout [Int]
    ) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = bytes.count
        var fields = 0
        var start = 0
        while true {
            while start < count, bytes[start] == 0x20 { start += 1 }
            let end = ByteSearch.firstIndex(of: delimiter, or: 0x22, in: raw, from: start)
            if end < count, bytes[end] == 0x22 { return false }
            if fields < starts.count {
                starts[fields] = start
                ends[fields] = end
            } else {
                starts.append(start)
                ends.append(end)
            }
            fields += 1
            if end == count { break }
            start = end + 1
        }
        if fields < starts.count {
            starts.removeLast(starts.count - fields)
            ends.removeLast(ends.count - fields)
        }
        return true
    }

    /// ``split(_:delimiter:starts:ends:)`` byte by byte, quotes and all:
    /// what the quick split of a line without quotes is tested against.
    package static func splitAnyLine(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, starts: inout [Int], ends: inout [Int]
    ) {
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var i = 0
        let count = bytes.count
        while true {
            while i < count, bytes[i] == 0x20 { i += 1 }
            if i < count, bytes[i] == 0x22 {
                let start = i + 1
                i += 1
                while i < count {
                    if bytes[i] == 0x22 {
                        if i + 1 < count, bytes[i + 1] == 0x22 {
                            i += 2
                            continue
                        }
                        break
                    }
                    i += 1
                }
                starts.append(start)
                ends.append(min(i, count))
                while i < count, bytes[i] != delimiter { i += 1 }
            } else {
                let start = i
                while i < count, bytes[i] != delimiter { i += 1 }
                starts.append(start)
                ends.append(i)
            }
            if i >= count { break }
            i += 1
        }
    }

    /// The text of the field `start..<end`, with doubled quotes made single.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).replacingDoubledQuotes()
    }

    /// ``text(_:_:_:)`` without leading and trailing blanks (spaces, tabs),
    /// trimmed on the bytes: no string is searched unless it holds a quote.
    static func trimmedText(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let field = trimmed(bytes, start, end)
        let text = String(decoding: field, as: UTF8.self)
        return field.contains(0x22) ? text.replacingDoubledQuotes() : text
    }

    /// The bytes of the field `start..<end` without leading and trailing
    /// blanks (spaces, tabs).
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        var start = start
        var end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
